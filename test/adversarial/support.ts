import { createHash } from 'node:crypto';
import { chmod, lstat, mkdir, readdir, readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Report } from '@gz-bench/core';
import { probeSandbox } from '@gz-bench/core';
import type { Result } from 'execa';
import { afterAll } from 'vitest';
import { cleanupAfterAll } from '../support/cleanup.js';
import { agentPath } from '../support/paths.js';
import { isRunning } from '../support/processes.js';
import type { TempProject } from '../support/project.js';
import { runCli } from '../support/run.js';
import { nodeCommand } from '../support/shell.js';
import { type CaseSpec, suite } from '../support/suite.js';

// Helpers of the adversarial suite: misbehaving fake agents run through the real CLI, each test in a
// project of its own with a private TMPDIR, so that what a run leaves behind (case areas, processes)
// is its own and can be counted.

/** Runs a fake agent from fixtures/agents, as a shell command line. */
export function agent(name: string, ...args: string[]): string {
  return nodeCommand(agentPath(name), ...args);
}

/** An agent template whose "agent" is the prompt itself, run as a shell script. */
export const SCRIPT_CMD = 'sh -c {{prompt}}';

/** A case as a test writes it, with any of the suite settings a case may carry (`git`, `network`…). */
export type AnyCase = CaseSpec & Record<string, unknown>;

/** A suite file's content with suite-level `settings` (`repo`, `protect`…) beside its cases. */
export function suiteWith(name: string, settings: Record<string, unknown>, cases: AnyCase[]): object {
  return { ...suite(name, cases), ...settings };
}

/** A temp project whose runs get `tmp` as their TMPDIR: every case area of the run is created there. */
export interface Scene {
  project: TempProject;
  /** The run's private TMPDIR, empty at first. */
  tmp: string;
  /** `gz-bench <args>` in the project, with TMPDIR set to `tmp` and `env` on top of the harness's. */
  cli(args: string[], env?: Record<string, string>): Promise<Result>;
  /** Writes the project's `suite.json` (see `suiteWith`). */
  writeSuite(name: string, settings: Record<string, unknown>, cases: AnyCase[]): Promise<string>;
  /** `gz-bench run suite.json --cmd SCRIPT_CMD <flags>`, as `cli` runs it. */
  runSuite(flags?: string[], env?: Record<string, string>): Promise<Result>;
  /** What the runs left behind: every entry of `tmp`, and the case processes still running. */
  leftovers(): Promise<{ files: string[]; processes: number[] }>;
}

/**
 * Registers the file's cleanup (call once, at the top level): afterwards, every process still
 * carrying a case environment of one of its scenes is killed (only processes its runs started carry
 * one), then the projects are removed.
 */
export function sceneFactory(): (files?: Record<string, string | object>) => Promise<Scene> {
  const { project } = cleanupAfterAll();
  const temps: string[] = [];
  afterAll(async () => {
    for (const tmp of temps) for (const pid of await caseProcesses(tmp)) killQuietly(pid);
  });
  return async (files = {}) => {
    const created = await project(files);
    const tmp = join(created.dir, 'tmp');
    await mkdir(tmp);
    temps.push(tmp);
    const cli: Scene['cli'] = (args, env = {}) => runCli(args, { cwd: created.dir, env: { TMPDIR: tmp, ...env } });
    return {
      project: created,
      tmp,
      cli,
      writeSuite: (name, settings, cases) => created.write('suite.json', suiteWith(name, settings, cases)),
      runSuite: (flags = [], env = {}) => cli(['run', 'suite.json', '--cmd', SCRIPT_CMD, ...flags], env),
      leftovers: async () => ({ files: await readdir(tmp), processes: await caseProcesses(tmp) }),
    };
  };
}

/** Memoises one CLI run that several tests assert on, so a file starts fewer CLI processes. */
export function shared<T>(run: () => Promise<T>): () => Promise<T> {
  let promise: Promise<T> | undefined;
  return () => {
    promise ??= run();
    return promise;
  };
}

/** The JSON report a `--json` run printed; throws with the run's output when there is none. */
export function parseReport(result: Result): Report {
  try {
    return JSON.parse(String(result.stdout)) as Report;
  } catch {
    throw new Error(`no JSON report (exit ${result.exitCode})\nstdout: ${result.stdout}\nstderr: ${result.stderr}`);
  }
}

/**
 * Running processes (zombies excluded) whose environment holds `GZ_BENCH_DIR=<tmp>/…`: every process
 * a case of a run with this TMPDIR started, in or out of its process group or sandbox, unless it
 * scrubbed its environment (none of the fake agents do).
 */
export async function caseProcesses(tmp: string): Promise<number[]> {
  const needle = Buffer.from(`GZ_BENCH_DIR=${tmp}/`);
  const pids = (await readdir('/proc')).filter((entry) => /^\d+$/.test(entry)).map(Number);
  const found: number[] = [];
  await Promise.all(
    pids.map(async (pid) => {
      const environ = await readFile(`/proc/${pid}/environ`).catch(() => undefined);
      if (environ === undefined) return;
      const at = environ.indexOf(needle);
      if (at >= 0 && (at === 0 || environ[at - 1] === 0) && (await isRunning(pid))) found.push(pid);
    }),
  );
  return found.sort((a, b) => a - b);
}

/** What `watchCaseProcesses` saw: every pid, and the command line of each as last seen. */
export interface Watched<T> {
  value: T;
  seen: number[];
  /** Command lines (arguments joined by spaces), in the order of `seen`. */
  commands: string[];
}

/** Awaits `run` while polling `caseProcesses(tmp)`; returns its value and every process seen meanwhile. */
export async function watchCaseProcesses<T>(tmp: string, run: Promise<T>): Promise<Watched<T>> {
  const seen = new Map<number, string>();
  let done = false;
  const settled = run.finally(() => {
    done = true;
  });
  while (!done) {
    for (const pid of await caseProcesses(tmp)) {
      // Read again each time: a process first seen between its fork and its exec still shows its
      // parent's command line (on a busy machine, a daemon's `node` as the agent that spawned it).
      const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
      const command = cmdline.split('\0').join(' ').trim();
      if (command !== '' || !seen.has(pid)) seen.set(pid, command);
    }
    await Promise.race([settled.catch(() => {}), new Promise((resolve) => setTimeout(resolve, 50))]);
  }
  return { value: await settled, seen: [...seen.keys()], commands: [...seen.values()] };
}

/** SIGKILL, ignoring a process that is already gone. */
export function killQuietly(pid: number, signal: NodeJS.Signals = 'SIGKILL'): void {
  try {
    process.kill(pid, signal);
  } catch {}
}

/**
 * A digest of everything under `dir` that a copy could change, never following a link nor opening a
 * special file: one line per entry with its type, permission bits and content hash or link target.
 */
export async function treeDigest(dir: string): Promise<string[]> {
  const lines: string[] = [];
  const walk = async (relative: string): Promise<void> => {
    for (const name of (await readdir(join(dir, relative))).sort()) {
      const path = relative === '' ? name : `${relative}/${name}`;
      const stats = await lstat(join(dir, path));
      const mode = (stats.mode & 0o7777).toString(8);
      if (stats.isSymbolicLink()) lines.push(`${path} link ${await readlink(join(dir, path))}`);
      else if (stats.isDirectory()) {
        lines.push(`${path} dir ${mode}`);
        await walk(path);
      } else if (stats.isFile()) {
        const hash = createHash('sha256')
          .update(await readFile(join(dir, path)))
          .digest('hex');
        lines.push(`${path} file ${mode} ${hash}`);
      } else lines.push(`${path} special ${mode}`);
    }
  };
  await walk('');
  return lines;
}

/** Makes a root-owned temp directory enterable by other users (mkdtemp creates 0700 ones). */
export async function openToOthers(dir: string): Promise<void> {
  await chmod(dir, 0o755);
}

/**
 * Whether bubblewrap works on this machine; the sandbox's tests are skipped where it does not (the
 * product falls back to no sandbox there, which other tests cover).
 */
export const SANDBOX_WORKS = (await probeSandbox()).available;
