import type { ReportResult } from '../report/model.js';
import type { CaseTally } from '../stats/counts.js';
import { type PairedTally, passRateDifference } from '../stats/paired-difference.js';
import { DEFAULT_BASELINE_ARM } from './load-arms.js';

// What a skill author asks of a run with arms: per agent, does each arm beat the baseline arm on the
// same cases, how often did its skills trigger, and what did it cost in tokens, money, turns and time.

/** Whether an arm helps: its interval against the baseline lies above 0, below 0, or across it. */
export type ArmEffect = 'helps' | 'hurts' | 'noEvidence';

/** Means per trial of what the agent reported, the arm's minus the baseline's; absent where a side reported none. */
export interface ArmDeltas {
  tokens?: number;
  costUsd?: number;
  turns?: number;
  durationMs?: number;
}

/** One arm of one agent against the baseline arm of that agent, over the cases both ran. */
export interface ArmVerdict {
  /** The agent; absent for the run's one `cmd`. */
  agentName?: string;
  arm: string;
  baseline: string;
  /** Cases both arms ran at least one trial of. */
  pairedCases: number;
  trials: number;
  baselineTrials: number;
  passRate: number;
  baselinePassRate: number;
  /** The mean over the paired cases of the arm's pass rate minus the baseline's, with its 95 % interval (`passRateDifference`). */
  difference: number;
  interval: { low: number; high: number };
  effect: ArmEffect;
  /**
   * The arm's trials in which the model loaded one of its skills, out of those whose trajectory could
   * tell; absent for an arm without skills, or where no trial had a trajectory.
   */
  trigger?: { used: number; trials: number; rate: number };
  deltas: ArmDeltas;
}

/**
 * The verdict of every arm against `baselineArm` (default `none` where there is one, else the first
 * arm seen), per agent, in the order they first appear. Only trials that ran count (not `notRun`).
 */
export function armVerdicts(results: readonly ReportResult[], baselineArm?: string): ArmVerdict[] {
  const ran = results.filter((row) => row.arm !== undefined && row.notRun !== true);
  const arms = [...new Set(ran.map((row) => row.arm as string))];
  const baseline = baselineArm ?? (arms.includes(DEFAULT_BASELINE_ARM) ? DEFAULT_BASELINE_ARM : arms[0]);
  if (baseline === undefined) return [];
  const agents = [...new Set(ran.map((row) => row.agentName))];
  const verdicts: ArmVerdict[] = [];
  for (const agentName of agents) {
    const ofAgent = ran.filter((row) => row.agentName === agentName);
    const base = byCase(ofAgent.filter((row) => row.arm === baseline));
    if (base.size === 0) continue;
    for (const arm of arms) {
      if (arm === baseline) continue;
      const rows = byCase(ofAgent.filter((row) => row.arm === arm));
      const keys = [...rows.keys()].filter((key) => base.has(key));
      if (keys.length === 0) continue;
      const armRows = keys.flatMap((key) => rows.get(key) ?? []);
      const baseRows = keys.flatMap((key) => base.get(key) ?? []);
      const pairs: PairedTally[] = keys.map((key) => ({
        a: tallyOf(rows.get(key) ?? []),
        b: tallyOf(base.get(key) ?? []),
      }));
      const { difference, low, high } = passRateDifference(pairs);
      const trigger = triggerOf(armRows);
      verdicts.push({
        ...(agentName !== undefined && { agentName }),
        arm,
        baseline,
        pairedCases: keys.length,
        trials: armRows.length,
        baselineTrials: baseRows.length,
        passRate: passRate(armRows),
        baselinePassRate: passRate(baseRows),
        difference,
        interval: { low, high },
        effect: low > 0 ? 'helps' : high < 0 ? 'hurts' : 'noEvidence',
        ...(trigger && { trigger }),
        deltas: deltasOf(armRows, baseRows),
      });
    }
  }
  return verdicts;
}

function byCase(rows: readonly ReportResult[]): Map<string, ReportResult[]> {
  const cases = new Map<string, ReportResult[]>();
  for (const row of rows) {
    const key = JSON.stringify([row.file, row.id]);
    cases.set(key, [...(cases.get(key) ?? []), row]);
  }
  return cases;
}

function tallyOf(rows: readonly ReportResult[]): CaseTally {
  return { trials: rows.length, passes: rows.filter((row) => row.passed).length };
}

function passRate(rows: readonly ReportResult[]): number {
  return rows.filter((row) => row.passed).length / rows.length;
}

function triggerOf(rows: readonly ReportResult[]): ArmVerdict['trigger'] {
  const told = rows.filter((row) => row.skills?.some((skill) => skill.used !== undefined));
  if (told.length === 0) return undefined;
  const used = told.filter((row) => row.skills?.some((skill) => skill.used === true)).length;
  return { used, trials: told.length, rate: used / told.length };
}

function deltasOf(arm: readonly ReportResult[], base: readonly ReportResult[]): ArmDeltas {
  const figures: Record<keyof ArmDeltas, (row: ReportResult) => number | undefined> = {
    tokens: (row) => {
      const usage = row.agent?.usage;
      if (usage?.inputTokens === undefined && usage?.outputTokens === undefined) return undefined;
      return (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0);
    },
    costUsd: (row) => row.agent?.usage?.costUsd,
    turns: (row) => row.agent?.usage?.turns,
    durationMs: (row) => row.durationMs,
  };
  const deltas: ArmDeltas = {};
  for (const [field, of] of Object.entries(figures) as Array<
    [keyof ArmDeltas, (row: ReportResult) => number | undefined]
  >) {
    const a = mean(arm.map(of));
    const b = mean(base.map(of));
    if (a !== undefined && b !== undefined) deltas[field] = a - b;
  }
  return deltas;
}

function mean(values: ReadonlyArray<number | undefined>): number | undefined {
  const known = values.filter((value): value is number => value !== undefined);
  return known.length === 0 ? undefined : known.reduce((sum, value) => sum + value, 0) / known.length;
}
