import { spawn } from 'node:child_process';

// A Dockerfile's RUN, without a daemon: bwrap with the stage's root file system as `/`, written in
// place (the stage is a private copy until the build is stored), in namespaces of its own for pids,
// IPC and host name. As Docker's builder does, it keeps the host's network, so `apt-get install`
// and `pip install` reach a mirror where one is reachable. Nothing of the host but its resolver
// configuration is shown, and no variable of the harness: only the stage's ENV and ARGs.

/** How a RUN ended: its exit code (or the signal's), and the tail of what it printed. */
export interface StepOutcome {
  exitCode: number;
  timedOut: boolean;
  output: string;
}

/** What a RUN needs. */
export interface StepOptions {
  bwrap: string;
  rootfs: string;
  /** The stage's working directory, in the image. */
  workdir: string;
  env: Readonly<Record<string, string>>;
  argv: readonly string[];
  timeoutMs: number;
  /** Each chunk of output as it comes, for progress. */
  onOutput?: (chunk: string) => void;
}

/** Docker's default capabilities of a container, less CAP_MKNOD (there is no device cgroup here). */
const BUILD_CAPABILITIES = [
  'CAP_CHOWN',
  'CAP_DAC_OVERRIDE',
  'CAP_FSETID',
  'CAP_FOWNER',
  'CAP_NET_RAW',
  'CAP_SETGID',
  'CAP_SETUID',
  'CAP_SETFCAP',
  'CAP_SETPCAP',
  'CAP_NET_BIND_SERVICE',
  'CAP_SYS_CHROOT',
  'CAP_KILL',
  'CAP_AUDIT_WRITE',
];

/** Output kept for the error of a failed step. */
const KEPT_OUTPUT = 64 * 1024;

/** bwrap's arguments for one RUN. */
export function stepArgv(options: Omit<StepOptions, 'timeoutMs' | 'onOutput' | 'bwrap'>): string[] {
  const asRoot = process.getuid?.() === 0;
  return [
    '--die-with-parent',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    // Unprivileged builds are root in a user namespace of their own, as rootless builders are.
    ...(asRoot ? [] : ['--unshare-user', '--uid', '0', '--gid', '0']),
    // As root, the capabilities Docker gives a build step and no more: no CAP_SYS_ADMIN to mount the
    // host's disks, no CAP_MKNOD to make their device nodes.
    ...(asRoot ? ['--cap-drop', 'ALL', ...BUILD_CAPABILITIES.flatMap((cap) => ['--cap-add', cap])] : []),
    '--bind',
    options.rootfs,
    '/',
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--ro-bind-try',
    '/etc/resolv.conf',
    '/etc/resolv.conf',
    '--chdir',
    options.workdir,
    '--clearenv',
    ...Object.entries(options.env).flatMap(([name, value]) => ['--setenv', name, value]),
    '--',
    ...options.argv,
  ];
}

/** Runs one RUN to its end (or its timeout, when the whole step is killed). */
export function runStep(options: StepOptions): Promise<StepOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(options.bwrap, stepArgv(options), { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let timedOut = false;
    const keep = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      options.onOutput?.(text);
      output = (output + text).slice(-KEPT_OUTPUT);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ exitCode: code ?? 128 + signalNumber(signal), timedOut, output });
    });
  });
}

function signalNumber(signal: NodeJS.Signals | null): number {
  return signal === 'SIGKILL' ? 9 : signal === 'SIGTERM' ? 15 : 1;
}
