import type { AgentRun, FailedStep, Outcome } from '../report/model.js';

/** What decided a trial's failure, as the steps of a case report it. */
export interface TrialFailure {
  step: FailedStep;
  message: string;
  /** The outcome, where the step alone does not tell it (an agent over its budget). */
  outcome?: Outcome;
}

/**
 * How a trial ended, from the step that failed it: wrong answers (`failed`, `tampered`) apart from
 * what kept the agent from answering at all (`timedOut`, `agentError`) and from what kept the trial
 * from running as the suite asks (`harnessError`: gz-bench's faults, and setup commands that failed,
 * which no agent can be blamed for).
 */
export function outcomeOf(failure: TrialFailure | undefined, agent: AgentRun | undefined): Outcome {
  if (failure === undefined) return 'passed';
  if (failure.outcome !== undefined) return failure.outcome;
  switch (failure.step) {
    case 'tamper':
      return 'tampered';
    case 'check':
      return 'failed';
    case 'agent':
      return agent?.timedOut ? 'timedOut' : 'agentError';
    case 'setup':
    case 'harness':
      return 'harnessError';
  }
}

const ERROR_LINE_LIMIT = 300;

/**
 * The agent's own last word on what went wrong: the last line of its output that says something (not
 * blank, not only punctuation or a closing brace), shortened to a line's length.
 */
export function lastErrorLine(outputTail: string): string | undefined {
  const lines = outputTail.split(/\r?\n/).map((line) => line.trim());
  for (let index = lines.length - 1; index >= 0; index--) {
    const line = lines[index] as string;
    if (!/[\p{L}\p{N}]/u.test(line)) continue;
    return line.length > ERROR_LINE_LIMIT ? `${line.slice(0, ERROR_LINE_LIMIT - 1)}…` : line;
  }
  return undefined;
}

/**
 * A failed check after an agent that exited non-zero (or was killed) is the agent's error, not a
 * wrong answer: the failure then names the exit and quotes the agent's last line.
 */
export function agentErrorOverCheck(failure: TrialFailure, agent: AgentRun): TrialFailure {
  if (failure.step !== 'check' || (agent.exitCode === 0 && agent.signal === null)) return failure;
  const exit = agent.signal !== null ? `was killed by ${agent.signal}` : `exited with ${agent.exitCode}`;
  const line = lastErrorLine(agent.outputTail);
  return { step: 'agent', message: `agent command ${exit}${line === undefined ? '' : `: ${line}`}` };
}
