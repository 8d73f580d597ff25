import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { runProcess } from '../run-process.js';
import type { ProcessResult, RunProcessOptions } from '../types.js';

/** Quotes a string as one word for the POSIX shell. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** A shell command line that runs a fake agent from fixtures/agents with the current node. */
export function agent(name: string, ...args: string[]): string {
  const script = fileURLToPath(new URL(`../../../../../fixtures/agents/${name}.mjs`, import.meta.url));
  return [process.execPath, script, ...args].map(shellQuote).join(' ');
}

/**
 * Running means alive and not a zombie: orphans may wait seconds for a slow init to reap them.
 * Read from /proc on Linux, independently of the code under test.
 */
export function isRunning(pid: number): boolean {
  if (process.platform !== 'linux') {
    try {
      process.kill(pid, 0);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
      throw error;
    }
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/**
 * An independent scan of /proc: the running pids for which `matches` (which may read their /proc
 * files) holds. A process that ends during the scan is left out.
 */
export function runningPids(matches: (pid: number) => boolean): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => {
      try {
        return matches(pid) && isRunning(pid);
      } catch {
        return false;
      }
    });
}

/** The pid of a process that has already exited. */
export function deadPid(): number {
  return Number(execFileSync('/bin/sh', ['-c', 'echo $$']).toString());
}

/** The pids a fake agent wrote to `file`, one a line. */
export async function readPids(file: string): Promise<number[]> {
  return (await readFile(file, 'utf8')).trim().split('\n').map(Number);
}

/**
 * SIGKILLs the pids a test recorded and empties the list: a failing test must not leave processes
 * behind on a shared machine, and only the ones it recorded are its own to end.
 */
export function killStrays(strays: number[]): void {
  for (const pid of strays.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {}
  }
}

/** An environment of PATH alone, plus `extra`: runProcess passes exactly what it is given. */
export function pathOnlyEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', ...extra };
}

/** runProcess with the tests' defaults (PATH alone, a 10 s timeout, a 300 ms grace) under `overrides`. */
export function runIn(
  cwd: string,
  command: string,
  overrides: Partial<RunProcessOptions> = {},
): Promise<ProcessResult> {
  return runProcess({ command, cwd, env: pathOnlyEnv(), timeoutMs: 10_000, killGraceMs: 300, ...overrides });
}
