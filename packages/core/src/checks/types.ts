import type { ProcessResult } from '../process/types.js';
import type { BoundedMatchOutcome } from '../regex/bounded-match.js';
import type { Check, CheckKind } from '../suite/schema.js';

/** The part of `node:fs/promises` that checks use; unit tests pass a memfs volume's `promises`. */
export interface CheckFs {
  lstat(
    path: string,
  ): Promise<{ isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean; size: number | bigint }>;
  stat(path: string): Promise<{ isFile(): boolean; isDirectory(): boolean; size: number | bigint }>;
  realpath(path: string): Promise<string>;
  readFile(path: string): Promise<Buffer | Uint8Array>;
}

/** Everything a check may look at. */
export interface CheckContext {
  /** Absolute path of the case workspace. */
  workspace: string;
  /** Filesystem the path checks read through. */
  fs: CheckFs;
  /** The agent command's combined stdout and stderr. */
  output: string;
  /** Runs a shell command in the workspace under the case's limits. */
  runCommand(command: string): Promise<CommandRun>;
  /** The bound of each command `runCommand` runs, for messages. */
  commandTimeoutMs?: number;
  /** How the agent command ended; absent where no agent ran (a check evaluated on its own). */
  agentExit?: { exitCode: number | null; signal: string | null };
  /**
   * What the trial's trajectory says of each skill of its arm; absent where the trial installed none.
   * `used` is absent when the agent gave no trajectory to tell by.
   */
  skills?: readonly { name: string; used?: boolean; step?: number }[];
  /**
   * Tests a user's regular expression against `text` within the case's time bound, off the thread that
   * runs the case, so a pattern that backtracks catastrophically cannot stall it.
   */
  matchRegex(pattern: string, flags: string | undefined, text: string): Promise<BoundedMatchOutcome>;
}

/** A check's command as it ended, with the reward a task's verifier wrote, where it wrote one. */
export type CommandRun = ProcessResult & { reward?: CommandReward };

/** A task's reward file (see case/task-layout.ts): its value and verdict, or why it is not a reward. */
export type CommandReward =
  | { file: string; value: number | Record<string, number>; passed: boolean }
  | { file: string; problem: string };

/** What evaluating one check found. */
export interface CheckOutcome {
  passed: boolean;
  /** Why it failed, e.g. `file does not exist: world.txt`. */
  message?: string;
  /** Extra facts for debugging (a command check's exit code and output tail). */
  details?: CheckDetails;
}

/** Facts a check may add to its result. */
export interface CheckDetails {
  exitCode?: number | null;
  timedOut?: boolean;
  outputTail?: string;
  /** The reward a task's verifier wrote, which decided a `command` check over its exit code. */
  reward?: number | Record<string, number>;
  /** The log file of a `command` check's whole output (see `AgentRun.log`). */
  log?: string;
}

/** One check kind: evaluates checks of that kind. */
export interface CheckDefinition<K extends CheckKind = CheckKind> {
  kind: K;
  evaluate(check: Extract<Check, { kind: K }>, context: CheckContext): Promise<CheckOutcome>;
}

/** A check with its outcome, as it appears in the report. */
export type CheckResult = Check &
  CheckDetails & {
    passed: boolean;
    message?: string;
    /** True when an earlier step failed and this check was not evaluated. */
    skipped?: true;
  };
