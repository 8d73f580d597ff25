import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { findOnPath } from '../../process/find-on-path.js';

// Where an environment's image comes from. A container engine (Docker, Podman) builds Dockerfiles
// with its own builder and holds images in its own store; `bwrap` is gz-bench's daemonless builder
// and archives. Either way the trials run in gz-bench's bwrap container over the image's root, so
// every protection (hidden verifiers, protected paths, the case's own HOME) is the same under each.

/** Which engine provides environments' images: `auto` takes Docker, then Podman, where one works, else bwrap. */
export type EngineMode = 'auto' | 'docker' | 'podman' | 'bwrap';

/** Every engine mode, for validating options and flags. */
export const ENGINE_MODES: readonly EngineMode[] = ['auto', 'docker', 'podman', 'bwrap'];

/** Whether a string (an option, a flag, a variable) names an engine mode. */
export function isEngineMode(value: unknown): value is EngineMode {
  return (ENGINE_MODES as readonly unknown[]).includes(value);
}

/** A container engine. */
export type ContainerEngine = 'docker' | 'podman';

/** Whether an engine works here, and if not, what stops it and the fix. */
export type EngineProbe = { works: true; version: string } | { works: false; reason: string; fix: string };

/** How long an engine may take to answer whether it works. */
const PROBE_TIMEOUT_MS = 10_000;

/** What an engine's command line starts with: the program and the flags this machine needs. */
export function engineCommand(engine: ContainerEngine): string[] {
  if (engine === 'docker') return ['docker'];
  // Without systemd there is no systemd cgroup manager to ask; runc copes with cgroup layouts crun refuses.
  return [
    'podman',
    ...(existsSync('/run/systemd/system') ? [] : ['--cgroup-manager', 'cgroupfs']),
    ...(findOnPath('runc', process.env.PATH ?? '') === undefined ? [] : ['--runtime', 'runc']),
  ];
}

/** Runs an engine's command to its end: its exit code and output, never a rejection. */
export function runEngine(
  engine: ContainerEngine,
  args: readonly string[],
  options: { timeoutMs?: number; onLine?: (line: string) => void } = {},
): Promise<{ exitCode: number; output: string }> {
  const [program, ...flags] = engineCommand(engine);
  return new Promise((resolve) => {
    const child = execFile(
      program as string,
      [...flags, ...args],
      { timeout: options.timeoutMs ?? 0, killSignal: 'SIGKILL', maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' },
      (error, stdout, stderr) => {
        const output = `${stdout}${stderr}`;
        if (error === null) resolve({ exitCode: 0, output });
        else {
          const code = (error as NodeJS.ErrnoException).code;
          resolve({ exitCode: typeof error.code === 'number' ? error.code : 127, output: output || String(code) });
        }
      },
    );
    if (options.onLine !== undefined) {
      let pending = '';
      const onData = (chunk: string) => {
        const lines = (pending + chunk).split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) if (line.trim() !== '') options.onLine?.(line);
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
    }
  });
}

const probes = new Map<ContainerEngine, Promise<EngineProbe>>();

/** Whether `engine` works here: its client is installed and its daemon (Docker) or store (Podman) answers. Once per process. */
export function probeEngine(engine: ContainerEngine): Promise<EngineProbe> {
  let probe = probes.get(engine);
  if (probe === undefined) {
    probe = probeOnce(engine);
    probes.set(engine, probe);
  }
  return probe;
}

async function probeOnce(engine: ContainerEngine): Promise<EngineProbe> {
  if (findOnPath(engine, process.env.PATH ?? '') === undefined) {
    return {
      works: false,
      reason: `${engine} is not installed`,
      fix: engine === 'docker' ? 'install Docker Engine' : 'install podman (Debian: apt-get install podman runc)',
    };
  }
  const args =
    engine === 'docker' ? ['version', '--format', '{{.Server.Version}}'] : ['info', '--format', '{{.Version.Version}}'];
  const { exitCode, output } = await runEngine(engine, args, { timeoutMs: PROBE_TIMEOUT_MS });
  if (exitCode === 0) return { works: true, version: output.trim().split('\n')[0] ?? '' };
  const said = output.trim().split('\n').at(-1) ?? '';
  if (engine === 'docker') {
    return {
      works: false,
      reason: `the Docker daemon does not answer (${said})`,
      fix: 'start dockerd (without systemd: dockerd & as root), or use podman or the bwrap engine',
    };
  }
  return { works: false, reason: `podman info fails (${said})`, fix: 'see podman info; or use the bwrap engine' };
}

/**
 * The engine `mode` resolves to here: the one named, when it works; for `auto`, Docker, then Podman,
 * else bwrap. A named engine that does not work is an error line, with what stops it.
 */
export async function resolveEngine(mode: EngineMode): Promise<ContainerEngine | 'bwrap' | { problem: string }> {
  if (mode === 'bwrap') return 'bwrap';
  if (mode !== 'auto') {
    const probe = await probeEngine(mode);
    return probe.works ? mode : { problem: `the ${mode} engine does not work here: ${probe.reason}; ${probe.fix}` };
  }
  for (const engine of ['docker', 'podman'] as const) if ((await probeEngine(engine)).works) return engine;
  return 'bwrap';
}
