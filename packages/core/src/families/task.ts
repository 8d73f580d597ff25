import type { FamilyInstance, FamilyReport, ReplyKind, ToolCall } from './types.js';

/** The server's answer to one call: what the tool prints, and the exit code it ends with. */
export interface ToolReply {
  kind: ReplyKind;
  text: string;
}

/** Answers one case's tool calls; stateful (a transient fault fires once), so one per case. */
export type Responder = (tool: string, arg: string) => ToolReply;

/** What scoring a family case found: the report's figures and, when it failed, why in one line. */
export interface FamilyScore {
  report: FamilyReport;
  failure?: string;
}

/**
 * One generated task: everything the agent may see (prompt and workspace files), and, only in the
 * harness's memory, what answers its tool and scores its answer.
 */
export interface FamilyTask {
  instance: FamilyInstance;
  prompt: string;
  /** Workspace-relative path → content; paths under `tools/` are made executable. */
  files: Readonly<Record<string, string>>;
  /** The workspace file the agent writes its answer to. */
  answerFile: string;
  /** How long the server holds each call before it answers, so that parallel calls overlap measurably. */
  holdMs: number;
  idealCalls: number;
  /**
   * Shell lines that solve the task as a careful agent would, from what any agent sees (the prompt,
   * the workspace files), never from the hidden data: the case's `solution` for `gz-bench check-suite`.
   */
  solution: string[];
  /** The hidden data, for determinism tests: never written anywhere the agent can read. */
  hidden: unknown;
  createResponder(): Responder;
  /** Scores the answer file's text (undefined when it was not written) against the calls the server logged. */
  score(answer: string | undefined, calls: readonly ToolCall[]): FamilyScore;
}

/** The most calls in flight at once, from their time spans (a call ending as another starts does not overlap). */
export function maxConcurrency(calls: readonly ToolCall[]): number {
  const events = calls.flatMap((call) => [
    { at: call.startMs, delta: 1 },
    { at: call.endMs, delta: -1 },
  ]);
  // Ends before starts at the same instant.
  events.sort((a, b) => a.at - b.at || a.delta - b.delta);
  let now = 0;
  let most = 0;
  for (const event of events) {
    now += event.delta;
    most = Math.max(most, now);
  }
  return most;
}

/** What every family reports of a case: which instance it was, the calls the server logged and how many ran at once. */
export function reportedCalls(
  instance: FamilyInstance,
  calls: readonly ToolCall[],
): Pick<FamilyReport, 'id' | 'kind' | 'seed' | 'size' | 'calls' | 'maxConcurrency'> {
  return {
    id: instance.id,
    kind: instance.kind,
    seed: instance.seed,
    size: instance.size,
    calls: calls.length,
    maxConcurrency: maxConcurrency(calls),
  };
}
