// Everything a perf run makes lives in one private temp directory, removed at the end, and every
// process it starts is its own process group, killed by its id should the run be interrupted.
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Process groups of the children still running, to kill by their id on an interruption. */
const running = new Set();

/** Tracks a detached child's process group until it exits. */
export function track(child) {
  if (child.pid === undefined) return;
  running.add(child.pid);
  child.once('exit', () => running.delete(child.pid));
}

function killRunning() {
  for (const pgid of running) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {}
  }
}

/**
 * Creates the run's private directory: `tmp/` (the TMPDIR of every harness run, so that its case
 * areas and caches are private too) and room for projects. `remove()` deletes it all; Ctrl-C and
 * SIGTERM kill the running children, remove it and exit 130 / 143.
 */
export async function createWorkRoot() {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'gz-bench-perf-')));
  const tmp = join(root, 'tmp');
  await mkdir(tmp);
  let removed = false;
  const remove = async () => {
    if (removed) return;
    removed = true;
    killRunning();
    await rm(root, { recursive: true, force: true });
  };
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ]) {
    process.once(signal, () => {
      process.stderr.write(`perf: interrupted; removing ${root}\n`);
      remove().finally(() => process.exit(code));
    });
  }
  let count = 0;
  return {
    root,
    tmp,
    /** A fresh directory under the root. */
    async dir(name) {
      count += 1;
      const path = join(root, `${String(count).padStart(2, '0')}-${name}`);
      await mkdir(path, { recursive: true });
      return path;
    },
    /** What the harness runs left in the private TMPDIR (nothing, when they cleaned up). */
    leftovers: () => readdir(tmp),
    remove,
  };
}

/**
 * Processes still alive that the run started, directly or through the harness: everything the run
 * starts gets `tmp` (or a directory below it, for the cases' commands) as TMPDIR.
 */
export function leftoverProcesses(tmp) {
  const found = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    let environ;
    try {
      environ = readFileSync(`/proc/${entry}/environ`, 'utf8');
    } catch {
      continue;
    }
    if (environ.split('\0').some((variable) => variable === `TMPDIR=${tmp}` || variable.startsWith(`TMPDIR=${tmp}/`))) {
      found.push(Number(entry));
    }
  }
  return found;
}
