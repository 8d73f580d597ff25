import { seededRandom } from '../../stats/prng.js';
import type { Outcome, ReportResult, Usage } from '../model.js';
import { result } from './results.js';

/** One trial of agent `agentName` on case `id` of the demo suite that ended in `outcome`. */
export function trial(
  agentName: string | undefined,
  id: string,
  trialNumber: number,
  outcome: Outcome,
  durationMs: number,
  usage?: Usage,
): ReportResult {
  const passed = outcome === 'passed';
  const row = result({ id, passed, outcome, durationMs, trial: trialNumber });
  if (agentName !== undefined) row.agentName = agentName;
  if (usage !== undefined) {
    row.agent = {
      exitCode: outcome === 'agentError' ? 1 : 0,
      signal: null,
      timedOut: outcome === 'timedOut',
      durationMs,
      outputTail: '',
      outputBytes: 0,
      outputDroppedBytes: 0,
      usage,
    };
  }
  if (!passed) row.error = `trial ended ${outcome}`;
  if (outcome === 'notRun') row.notRun = true;
  return row;
}

/** An agent of known skill: each of its trials passes with probability `skill`, independently. */
export interface FakeAgent {
  name: string;
  skill: number;
}

/**
 * Report rows of `cases` × `trials` for each agent, drawn from a seeded generator: the same seed gives
 * the same rows. Trials that do not pass fail a check; durations lie in [1000, 2000) ms.
 */
export function fakeTrials(agents: readonly FakeAgent[], cases: number, trials: number, seed: number): ReportResult[] {
  const random = seededRandom(seed);
  const rows: ReportResult[] = [];
  for (const agent of agents) {
    for (let index = 0; index < cases; index++) {
      for (let number = 1; number <= trials; number++) {
        const outcome = random() < agent.skill ? 'passed' : 'failed';
        rows.push(trial(agent.name, `case-${index + 1}`, number, outcome, 1000 + Math.floor(random() * 1000)));
      }
    }
  }
  return rows;
}
