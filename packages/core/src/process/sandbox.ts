import { spawn } from 'node:child_process';
import { readlink, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { Readable } from 'node:stream';
import { createOwnedDir } from '../workspace/owned-dirs.js';
import { findOnPath } from './find-on-path.js';
import { SANDBOX_INFO_FD } from './sandbox-init.js';
import type { WorkdirLayout } from './workdir-layout.js';

// An agent runs inside bubblewrap (bwrap) when it is installed and works: the host filesystem is
// read-only, only the case's area is writable, and the whole sandbox dies with its bwrap process.
// bwrap needs no setuid bit and no daemon: it uses user namespaces when run unprivileged, and plain
// namespaces when run as root. Where neither works (some containers refuse namespaces), `auto` falls
// back to no sandbox and says so.

/** How a case's commands are isolated: `auto` uses bubblewrap where it works, else nothing. */
export type SandboxMode = 'auto' | 'bwrap' | 'none';

/** Every sandbox mode, for validating options and flags. */
export const SANDBOX_MODES: readonly SandboxMode[] = ['auto', 'bwrap', 'none'];

/** Whether a string (an option, a flag, a variable) names a sandbox mode. */
export function isSandboxMode(value: unknown): value is SandboxMode {
  return (SANDBOX_MODES as readonly unknown[]).includes(value);
}

/** Whether bubblewrap works on this machine with the flags cases use. */
export type SandboxProbe =
  | { available: true; version: string; bwrapPath: string }
  | { available: false; installed: boolean; reason: string; fix?: string };

/** The sandbox cases actually get, and a line for the user when it is not the one they might expect. */
export interface ResolvedSandbox {
  kind: 'bwrap' | 'none';
  /** Why `auto` ran without a sandbox; absent when nothing needs saying. */
  note?: string;
}

/** Where a sandboxed command may write and work. */
export interface SandboxArgvOptions {
  /** The only writable directory (the case's workspace, TMPDIR, HOME…); must exist. */
  area: string;
  /** The command's working directory inside the sandbox, normally inside `area`. */
  workspace: string;
  /** Paths inside `area` (which must exist) that stay read-only there, such as the prompt file. */
  readOnly?: readonly string[];
  /** Whether the command may use the host's network (and its loopback). */
  network: boolean;
  /** Host directories (which must exist) that appear empty inside: hidden verifiers' sources. */
  hidden?: readonly string[];
  /** Host files (which must exist) that appear empty inside: hidden verifier and solution files. */
  hiddenFiles?: readonly string[];
  /**
   * Directories of the area shown again at fixed paths (a task's /tests, /logs), each only while it
   * exists when a command starts; the paths must be placeable (see `workdirLayout`).
   */
  binds?: readonly { source: string; target: string }[];
  /** The bwrap executable. @default the first `bwrap` on the harness's PATH */
  bwrapPath?: string;
  /** Whether the harness runs as root, whose commands keep root's file ownership powers. @default the process's uid is 0 */
  asRoot?: boolean;
  /** Where `workspace` also appears, and the command starts (see `workdirLayout`). */
  workdir?: WorkdirLayout;
  /** Directories inside `area` that appear empty (an image's overlay directories). */
  areaMasks?: readonly string[];
}

/**
 * What root keeps in the sandbox so that ordinary tools behave as they do outside it: `tar` and
 * `cp -p` give files their owners (CHOWN) and then set their modes, times and set-group-ID bits
 * (FOWNER, FSETID), and the files they made, now another user's, stay root's to read and write
 * (DAC_OVERRIDE), as `npm`, `pip` and `git` then expect. Only the case area is writable, so these act
 * on nothing else; every other capability (mounts, devices, other users' processes, the network's
 * configuration, changing uid) stays dropped. An unprivileged harness has none of them to keep.
 */
export const ROOT_FILE_CAPABILITIES = ['CAP_CHOWN', 'CAP_DAC_OVERRIDE', 'CAP_FOWNER', 'CAP_FSETID'] as const;

/** Raised when sandbox `bwrap` is asked for but bubblewrap is missing or does not work here. */
export class SandboxError extends Error {
  readonly code = 'GZ_BENCH_SANDBOX_UNAVAILABLE';
  override name = 'SandboxError';
}

const PROBE_TIMEOUT_MS = 10_000;

/**
 * The bwrap argv prefix (executable first, ending in `--`) that runs a command with the host
 * filesystem read-only and only `area` writable. Append the command, e.g. `/bin/sh -c <line>`.
 */
export function sandboxArgv(options: SandboxArgvOptions): string[] {
  return [
    options.bwrapPath ?? locateBwrap() ?? 'bwrap',
    // The whole host filesystem, submounts included, read-only: tools, node and the repo stay usable,
    // nothing outside the area can be changed. (With a workdir that does not exist here, its entries
    // one by one beside the workdir's first directory: see workdir-layout.ts.)
    ...(options.workdir?.root ?? ['--ro-bind', '/', '/']),
    ...(options.workdir?.covers ?? []),
    // A fresh minimal /dev (null, zero, random, tty, shm…) instead of the host's devices.
    '--dev',
    '/dev',
    // A /proc for the new pid namespace: the agent sees its own processes, not the host's.
    '--proc',
    '/proc',
    // The kernel settings under /proc/sys read-only: a harness running as root leaves the agent uid 0,
    // which owns them, and dropped capabilities do not stop writes such as kernel.core_pattern.
    '--ro-bind',
    '/proc/sys',
    '/proc/sys',
    // Without network, also no host services through their Unix sockets in /run (docker.sock, dbus…).
    // Mounted before the area, so an area under /run is bound on top and stays visible.
    ...(options.network ? [] : ['--tmpfs', '/run']),
    // An empty tmpfs over each, so not even a search of the whole file system finds what they hold.
    ...(options.hidden ?? []).flatMap((path) => ['--tmpfs', path]),
    ...(options.hiddenFiles ?? []).flatMap((path) => ['--ro-bind', '/dev/null', path]),
    // No private /tmp: the host's stays visible (read-only, like the rest), because agents, their tools
    // and the projects they work on may live there. TMPDIR points into the area instead.
    // The one writable place. TMPDIR and HOME point inside it.
    '--bind',
    options.area,
    options.area,
    // Mounted over their place in the area: not even root inside can write, remove or replace them.
    ...(options.readOnly ?? []).flatMap((path) => ['--ro-bind', path, path]),
    ...(options.areaMasks ?? []).flatMap((path) => ['--tmpfs', path]),
    // The workspace again at the fixed path a task assumes (`/app`), then the root made read-only
    // where it is the sandbox's own.
    ...(options.workdir === undefined ? [] : ['--bind', options.workspace, options.workdir.path]),
    // `--bind-try`: a source that is not there yet (the verifiers, before the checks) is no mount.
    ...(options.binds ?? []).flatMap(({ source, target }) => ['--bind-try', source, target]),
    // An image's root stays writable: what a command changes there goes to the trial's own overlay.
    ...(options.workdir?.root === undefined || options.workdir.writableRoot === true ? [] : ['--remount-ro', '/']),
    ...(options.workdir?.coverDirs ?? []).flatMap((dir) => ['--remount-ro', dir]),
    // As root, bwrap keeps every capability by default, and CAP_SYS_ADMIN could simply remount `/`
    // read-write. Unprivileged runs have none to drop, so this is harmless there.
    '--cap-drop',
    'ALL',
    // …except, as root, those of file ownership (see ROOT_FILE_CAPABILITIES), one flag each.
    ...((options.asRoot ?? process.getuid?.() === 0)
      ? ROOT_FILE_CAPABILITIES.flatMap((cap) => ['--cap-add', cap])
      : []),
    // bwrap becomes pid 1 of a new pid namespace: when it dies, the kernel kills every process in
    // the sandbox, including ones that called setsid() to leave the process group.
    '--unshare-pid',
    // No System V IPC or POSIX message queues shared with host processes.
    '--unshare-ipc',
    // Its own hostname, so `hostname foo` inside cannot rename the host.
    '--unshare-uts',
    // Without network, a new network namespace with only its own loopback: no internet, and no
    // servers listening on the host's 127.0.0.1. With network, the host's is shared (bwrap's default).
    ...(options.network ? [] : ['--unshare-net']),
    // If the harness (bwrap's parent) dies, the kernel kills bwrap, and with it the sandbox.
    '--die-with-parent',
    // A new session without a controlling terminal: no TIOCSTI keystroke injection into the
    // harness's terminal (CVE-2017-5226).
    '--new-session',
    // bwrap writes the host pid of the sandbox's pid 1 here (runProcess opens this fd as a pipe), so
    // the process layer can wait for the whole sandbox to be gone, not just for bwrap's monitor.
    // The sandboxed command does not inherit this descriptor.
    '--info-fd',
    String(SANDBOX_INFO_FD),
    '--chdir',
    options.workdir?.path ?? options.workspace,
    // Ends bwrap's options: the command's own arguments are never read as bwrap flags.
    '--',
  ];
}

let cachedBwrapPath: { path: string | undefined } | undefined;

/** The first executable `bwrap` on the harness's PATH, looked up once. */
export function locateBwrap(): string | undefined {
  cachedBwrapPath ??= { path: findOnPath('bwrap', process.env.PATH ?? '') };
  return cachedBwrapPath.path;
}

let cachedProbe: Promise<SandboxProbe> | undefined;

/** Tries bubblewrap once per process, with the flags cases use, on `/bin/sh -c true`. */
export function probeSandbox(): Promise<SandboxProbe> {
  cachedProbe ??= probeBubblewrap(locateBwrap());
  return cachedProbe;
}

/**
 * Tries the given bwrap (undefined: not installed) without caching: `--version`, then a trivial
 * command with the real flags (network off, the stricter set) in a throwaway area. Never rejects.
 */
export async function probeBubblewrap(bwrapPath: string | undefined): Promise<SandboxProbe> {
  if (bwrapPath === undefined) return { available: false, installed: false, reason: 'bwrap is not on the PATH' };
  const foreign = await foreignProc();
  if (foreign !== undefined) return { available: false, installed: true, ...foreign };
  // Both at once: a worker probes before its first case, which waits for it.
  const [versionRun, trial] = await Promise.all([execute(bwrapPath, ['--version']), tryBubblewrap(bwrapPath)]);
  if (versionRun.failure !== undefined) {
    const { missing, message } = versionRun.failure;
    return { available: false, installed: !missing, reason: missing ? `${bwrapPath} not found` : message };
  }
  const version = versionRun.stdout.trim().replace(/^bubblewrap\s+/, '') || 'unknown';
  if (trial !== undefined) return { available: false, installed: true, reason: trial };
  return { available: true, version, bwrapPath };
}

/**
 * Why /proc cannot serve bwrap here, or undefined. bwrap looks its sandbox's pid up under /proc
 * (`--info-fd` needs it): when /proc was mounted for another pid namespace than this process's (a
 * harness started by `unshare --pid --fork` without `--mount-proc`), that pid names another process or
 * none, and cases fail or not by which pids the host happens to have. /proc/self tells: it names this
 * process by its pid in /proc's namespace.
 */
async function foreignProc(): Promise<{ reason: string; fix: string } | undefined> {
  if (process.platform !== 'linux') return undefined;
  const seen = await readlink('/proc/self').catch(() => undefined);
  if (seen === undefined || seen === String(process.pid)) return undefined;
  return {
    reason: `/proc belongs to another pid namespace (it shows this process as pid ${seen}, not ${process.pid}), and bwrap looks its sandbox up there`,
    fix: 'mount a /proc of this pid namespace (e.g. `unshare --pid --fork --mount-proc`)',
  };
}

/** Runs `/bin/sh -c true` with the cases' flags (network off, the stricter set); why it failed, or undefined. */
async function tryBubblewrap(bwrapPath: string): Promise<string | undefined> {
  let area: string;
  try {
    // Real path: the area must be named the way the kernel will see it once bound. Named after this
    // process like a case area, so that cleanStaleAreas removes it should the process die meanwhile.
    area = await createOwnedDir(tmpdir(), 'area');
  } catch (error) {
    return `cannot create a trial area in ${tmpdir()}: ${error instanceof Error ? error.message : String(error)}`;
  }
  try {
    const argv = sandboxArgv({ area, workspace: area, network: false, bwrapPath });
    const trial = await execute(argv[0] as string, [...argv.slice(1), '/bin/sh', '-c', 'true']);
    return trial.failure?.message;
  } finally {
    await rm(area, { recursive: true, force: true });
  }
}

/**
 * Turns a sandbox mode into the sandbox cases get. `auto` falls back to none with a note; `bwrap`
 * throws a SandboxError when bubblewrap does not work here; `none` never probes.
 */
export async function resolveSandbox(
  mode: SandboxMode,
  probe: () => Promise<SandboxProbe> = probeSandbox,
): Promise<ResolvedSandbox> {
  if (mode === 'none') return { kind: 'none' };
  const result = await probe();
  if (result.available) return { kind: 'bwrap' };
  const problem = result.installed ? `bubblewrap does not work here: ${result.reason}` : 'bubblewrap is not installed';
  if (mode === 'auto') return { kind: 'none', note: `${problem}; cases run without a sandbox` };
  const fix =
    result.fix ??
    (result.installed
      ? 'allow user namespaces for unprivileged users (or run where they are allowed)'
      : 'install bubblewrap (e.g. `apt-get install bubblewrap`)');
  throw new SandboxError(`sandbox "bwrap" was requested but ${problem}; ${fix}, or use sandbox "auto" or "none"`);
}

interface Execution {
  stdout: string;
  /** Undefined when the command ran and exited 0. */
  failure: { missing: boolean; message: string } | undefined;
}

/** Runs a command with fd 3 open (as runProcess gives a sandbox), bounded in time. Never rejects. */
function execute(file: string, args: string[]): Promise<Execution> {
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let settled = false;
    const settle = (failure: Execution['failure']): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ stdout, failure });
    };
    const child = spawn(file, args, {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, PROBE_TIMEOUT_MS);
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    (child.stdio[SANDBOX_INFO_FD] as Readable | null)?.resume();
    child.on('error', (error: NodeJS.ErrnoException) =>
      settle({ missing: error.code === 'ENOENT', message: firstLine(error.message) ?? String(error.code) }),
    );
    child.on('close', (code, signal) => {
      if (code === 0) return settle(undefined);
      if (timedOut)
        return settle({ missing: false, message: `bwrap did not finish within ${PROBE_TIMEOUT_MS / 1000} s` });
      const said = firstLine(stderr)?.replace(/^bwrap:\s*/, '');
      const detail = said ?? (signal === null ? `bwrap exited with code ${code}` : `bwrap was ended by ${signal}`);
      // The usual failure: the kernel or a container runtime refuses new (user) namespaces.
      settle({
        missing: false,
        message: /namespace|uid map|setuid/i.test(detail) ? `user namespaces are refused (${detail})` : detail,
      });
    });
  });
}

function firstLine(text: string): string | undefined {
  return text
    .split('\n')
    .map((line) => line.trim())
    .find((line) => line !== '');
}
