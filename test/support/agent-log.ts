import { readdir, readFile } from 'node:fs/promises';
import type { ExpectStatic } from 'vitest';
import { agentPath } from './paths.js';
import { processesWithEnv, waitUntilEnded } from './processes.js';
import { nodeCommand } from './shell.js';

// Reading the log of fixtures/agents/log-interval.mjs, the agent of the concurrency tests: when each
// case's agent started and ended, and in which workspace.

/**
 * A command template that runs log-interval.mjs, logging to `log`: it sleeps `ms`, or as many ms as
 * the case's prompt says.
 */
export function intervalAgent(log: string, ms?: number): string {
  const command = nodeCommand(agentPath('log-interval.mjs'), log, ...(ms === undefined ? [] : [String(ms)]));
  return ms === undefined ? `${command} {{prompt}}` : command;
}

/** One agent's run, as it logged it. */
export interface AgentRun {
  pid: number;
  start: number;
  /** Undefined for an agent that never got to the end of its sleep. */
  end: number | undefined;
  cwd: string;
}

/** Every agent run in the log, by pid. */
export async function readAgentRuns(log: string): Promise<AgentRun[]> {
  const text = await readFile(log, 'utf8').catch(() => '');
  const runs = new Map<number, AgentRun>();
  for (const line of text.split('\n')) {
    const [kind, pid, time, ...cwd] = line.split(' ');
    if (kind === 'start')
      runs.set(Number(pid), { pid: Number(pid), start: Number(time), end: undefined, cwd: cwd.join(' ') });
    const run = runs.get(Number(pid));
    if (kind === 'end' && run) run.end = Number(time);
  }
  return [...runs.values()];
}

/** The most agents that ran at the same time; one that ended is no longer running at that moment. */
export function maxInFlight(runs: AgentRun[]): number {
  const events = runs.flatMap((run) => [
    [run.start, 1],
    [run.end ?? Number.POSITIVE_INFINITY, -1],
  ]);
  events.sort(([a = 0, da = 0], [b = 0, db = 0]) => a - b || da - db);
  let running = 0;
  let most = 0;
  for (const [, delta = 0] of events) {
    running += delta;
    most = Math.max(most, running);
  }
  return most;
}

/** The run left nothing: no process that inherited its TMPDIR, no agent, nothing in TMPDIR. */
export async function expectNothingLeft(expect: ExpectStatic, tmp: string, runs: AgentRun[]): Promise<void> {
  expect(await waitUntilEnded(runs.map((run) => run.pid))).toEqual([]);
  const deadline = Date.now() + 10_000;
  let left = await processesWithEnv('TMPDIR', tmp);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    left = await processesWithEnv('TMPDIR', tmp);
  }
  expect(left).toEqual([]);
  expect(await readdir(tmp)).toEqual([]);
}

/** The abstract Unix sockets listening now (`@name`), as /proc/net/unix lists them. */
export async function abstractSockets(): Promise<string[]> {
  const table = await readFile('/proc/net/unix', 'utf8');
  return (
    table
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      // Flags 00010000: accepting connections (the server's socket; its connections carry its name too).
      .filter((fields) => fields[3] === '00010000' && fields[7]?.startsWith('@') === true)
      .map((fields) => fields[7] ?? '')
  );
}
