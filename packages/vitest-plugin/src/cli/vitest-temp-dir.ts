// Vitest keeps copies of transformed modules for its forks pool in a directory named at random in the
// OS temp dir, chosen when the Vitest instance is constructed (synchronously, first thing in
// createVitest) and removed only by a clean close. The CLI has it made inside its own cache dir
// instead, which is removed whenever the CLI ends, even when it is killed outright (see
// createRunCacheDir). TMPDIR points there only until the synchronous code that calls createVitest
// ends: the plugin, the cases and the workers, which all start after an await, see the user's.

/**
 * Points the OS temp dir at `dir` for the rest of the current synchronous run: call it right before
 * `createVitest(…)`. It is restored by a microtask queued now, which runs before any continuation
 * of createVitest's own awaits.
 */
export function vitestTempDirIn(dir: string): void {
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  queueMicrotask(() => {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  });
}
