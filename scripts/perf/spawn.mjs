// Timed child processes: the gz-bench CLI from node_modules/.bin, and Node scripts (the plain loop,
// the loading probes). Each is its own process group, tracked until it exits.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from './options.mjs';
import { track } from './workroot.mjs';

/** The gz-bench bin, as `pnpm install` links it. */
export const GZ_BENCH_BIN = join(REPO_ROOT, 'node_modules', '.bin', 'gz-bench');

/**
 * The environment of measured runs: the user's, without Vitest's and gz-bench's own variables (a
 * GZ_BENCH_CONCURRENCY or GZ_BENCH_SANDBOX of the shell would change what is measured), and with
 * TMPDIR pointing at the run's private temp directory.
 */
export function measuredEnv(tmp) {
  const env = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !/^(VITEST|GZ_BENCH_|NODE_OPTIONS$)/.test(name)) env[name] = value;
  }
  return { ...env, NO_COLOR: '1', TMPDIR: tmp };
}

/**
 * Runs `file args` to its end; resolves with the wall time from spawn to exit in ms, the exit code,
 * the output, and the pid (known from the start through `onSpawn`, for samplers).
 */
export function timedRun(file, args, { cwd, env, onSpawn, timeoutMs = 600_000 }) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(file, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    track(child);
    const stdout = [];
    const stderr = [];
    child.stdout.on('data', (chunk) => stdout.push(chunk));
    child.stderr.on('data', (chunk) => stderr.push(chunk));
    let wallMs;
    let exit;
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('spawn', () => onSpawn?.(child.pid));
    child.once('exit', (code, signal) => {
      wallMs = performance.now() - started;
      exit = { code, signal };
    });
    child.once('close', () => {
      clearTimeout(timer);
      resolve({
        wallMs,
        ...exit,
        pid: child.pid,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: Buffer.concat(stderr).toString('utf8'),
      });
    });
  });
}

/** Runs the gz-bench CLI with `args` in `cwd`. */
export function runGzBench(args, options) {
  return timedRun(GZ_BENCH_BIN, args, options);
}

/** Runs a Node script of this directory with `args`. */
export function runNodeScript(name, args, options) {
  return timedRun(process.execPath, [join(REPO_ROOT, 'scripts', 'perf', name), ...args], options);
}

/** The first line of what a failed run said, for a "not available" or "failed" cell. */
export function firstLine(run) {
  const text = `${run.stderr}\n${run.stdout}`.trim();
  return text.split('\n').find((line) => line.trim() !== '') ?? `exit code ${run.code ?? run.signal}`;
}
