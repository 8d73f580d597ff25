import { constants } from 'node:fs';
import { lstat, mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';
import type { CommandReward } from '../checks/types.js';
import { installMerged, verifyDirOf } from '../integrity/verifiers.js';
import type { CaseArea } from '../workspace/case-area.js';

// Harbor and Terminal-Bench tasks assume fixed paths beside their working directory: the tests at
// /tests, a writable /logs whose verifier/ receives the reward, the reference solution's files at
// /solution. Under bwrap these are directories of the case area shown again at those paths; each is
// bound only while it exists when a command starts, so the agent never sees /tests (made after it).

/** The fixed paths of a task beside its working directory. */
export const TASK_PATHS = ['/tests', '/logs', '/solution'] as const;

/** The variable that tells the solution lines where the solution's files are. */
export const SOLUTION_DIR_ENV = 'GZ_BENCH_SOLUTION_DIR';

const LOGS_ENTRY = 'task-logs';
const SOLUTION_ENTRY = 'solution';

/** Where a task's /logs and /solution are in its case area. */
export function taskLogsDir(area: CaseArea): string {
  return join(area.root, LOGS_ENTRY);
}

export function solutionDirOf(area: CaseArea): string {
  return join(area.root, SOLUTION_ENTRY);
}

/** The binds of a task's fixed paths (see `SandboxArgvOptions.binds`). */
export function taskBinds(area: CaseArea): { source: string; target: string }[] {
  return [
    { source: verifyDirOf(area), target: '/tests' },
    { source: taskLogsDir(area), target: '/logs' },
    { source: solutionDirOf(area), target: '/solution' },
  ];
}

/**
 * `/logs/agent` and `/logs/verifier` for the agent. `createCheckDirs` removes the whole directory
 * before the checks (nothing the agent wrote may read as a reward), and `freshVerifierLogs` makes it
 * again, empty.
 */
export async function createTaskLogs(area: CaseArea): Promise<void> {
  await freshVerifierLogs(area);
  await mkdir(join(taskLogsDir(area), 'agent'), { mode: 0o755 });
}

/** An empty `/logs/verifier` for the checks; an entry at the path fails, never reused. */
export async function freshVerifierLogs(area: CaseArea): Promise<void> {
  await mkdir(taskLogsDir(area), { mode: 0o755 });
  await mkdir(join(taskLogsDir(area), 'verifier'), { mode: 0o755 });
}

/** The solution's files, for the oracle run alone: removed with the rest of the area before the checks. */
export async function installSolutionFiles(sources: readonly string[], area: CaseArea): Promise<string> {
  return installMerged(sources, solutionDirOf(area));
}

// A reward is a number or a small JSON object; anything longer is not one.
const MAX_REWARD_BYTES = 64 * 1024;

/**
 * The reward in `/logs/verifier` after a check's command: `reward.txt` (a number; 1 passes) or
 * `reward.json` (its `reward` key, else every value, must be 1). Undefined when there is none, so the
 * command's exit code decides; a file that is not a reward is a failed check with the reason.
 */
export async function readTaskReward(area: CaseArea): Promise<CommandReward | undefined> {
  const dir = join(taskLogsDir(area), 'verifier');
  for (const name of ['reward.txt', 'reward.json']) {
    const file = `/logs/verifier/${name}`;
    const text = await readSmallFile(join(dir, name));
    if (text === undefined) continue;
    if (typeof text !== 'string') return { file, problem: text.problem };
    const value = name === 'reward.txt' ? textReward(text) : jsonReward(text);
    if (typeof value === 'string') return { file, problem: value };
    return { file, value, passed: rewardPasses(value) };
  }
  return undefined;
}

function rewardPasses(value: number | Record<string, number>): boolean {
  if (typeof value === 'number') return value >= 1;
  const values = 'reward' in value ? [value.reward as number] : Object.values(value);
  return values.length > 0 && values.every((each) => each >= 1);
}

function textReward(text: string): number | string {
  const trimmed = text.trim();
  const value = Number(trimmed);
  return trimmed === '' || !Number.isFinite(value) ? `not a number: ${JSON.stringify(trimmed.slice(0, 80))}` : value;
}

function jsonReward(text: string): Record<string, number> | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 'not JSON';
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return 'not a JSON object of numbers';
  const entries = Object.entries(parsed);
  if (!entries.every(([, each]) => typeof each === 'number' && Number.isFinite(each))) {
    return 'not a JSON object of numbers';
  }
  return Object.fromEntries(entries) as Record<string, number>;
}

/** A regular file's text, undefined when there is none, or why it cannot be a reward (a link, too long). */
async function readSmallFile(path: string): Promise<string | { problem: string } | undefined> {
  const stats = await lstat(path).catch(() => undefined);
  if (stats === undefined) return undefined;
  if (!stats.isFile()) return { problem: 'not a regular file' };
  if (stats.size > MAX_REWARD_BYTES) return { problem: `longer than ${MAX_REWARD_BYTES} bytes` };
  // O_NOFOLLOW: the file checked above is the file read, never a link put in its place.
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => undefined);
  if (handle === undefined) return { problem: 'unreadable' };
  try {
    return (await handle.readFile()).toString('utf8');
  } finally {
    await handle.close();
  }
}
