// Work that need not hold up a case runs as the next command of the process starts, when the harness
// has nothing to do but wait on that command, which runs on its own meanwhile (see garbage.ts for the
// collections and workspace/deferred-removal.ts for case areas).

const due: Array<() => void> = [];

/** Runs `work` once, as the next command starts. `work` must not throw. */
export function atNextCommandStart(work: () => void): void {
  due.push(work);
}

/** Called once a command has started: runs the work left for it. */
export function runCommandStartWork(): void {
  for (const work of due.splice(0)) work();
}
