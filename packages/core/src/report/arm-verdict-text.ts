import type { ArmVerdict } from '../skills/arm-verdicts.js';
import { agentLabel, formatCost, formatPercent } from './scoreboard-text.js';

// The words of an arm's verdict, shared by the terminal and the Markdown scoreboards.

export const ARM_HEADERS = [
  'agent',
  'arm',
  'pass',
  'baseline',
  'difference (95% interval)',
  'verdict',
  'skill used',
  'Δ tokens',
  'Δ cost',
  'Δ turns',
  'Δ time',
] as const;

export const ARM_LEGEND =
  'helps / hurts: the 95% interval of the pass-rate difference, paired by case over the cases both arms ran, lies above / below 0; no evidence otherwise. Δ: mean per trial, arm minus baseline.';

const EFFECT_WORDS: Record<ArmVerdict['effect'], string> = {
  helps: 'helps',
  hurts: 'hurts',
  noEvidence: 'no evidence',
};

/** The cells of one arm's row. */
export function armCells(verdict: ArmVerdict): string[] {
  const { deltas } = verdict;
  return [
    verdict.agentName === undefined ? '-' : agentLabel(verdict.agentName),
    agentLabel(verdict.arm),
    formatPercent(verdict.passRate),
    `${formatPercent(verdict.baselinePassRate)} (${agentLabel(verdict.baseline)})`,
    `${points(verdict.difference)} pts (${points(verdict.interval.low)} to ${points(verdict.interval.high)})`,
    EFFECT_WORDS[verdict.effect],
    verdict.trigger === undefined
      ? '-'
      : `${verdict.trigger.used}/${verdict.trigger.trials} (${formatPercent(verdict.trigger.rate)})`,
    deltas.tokens === undefined ? '-' : signed(Math.round(deltas.tokens), String),
    deltas.costUsd === undefined ? '-' : signed(deltas.costUsd, formatCost),
    deltas.turns === undefined ? '-' : signed(Number(deltas.turns.toFixed(1)), String),
    deltas.durationMs === undefined ? '-' : signed(deltas.durationMs / 1000, (s) => `${s.toFixed(1)}s`),
  ];
}

/** A difference of shares in percentage points, signed: `+38`. */
function points(share: number): string {
  const value = Math.round(share * 100);
  return `${value > 0 ? '+' : value < 0 ? '−' : '±'}${Math.abs(value)}`;
}

function signed(value: number, format: (magnitude: number) => string): string {
  if (value === 0) return `±${format(0)}`;
  return `${value > 0 ? '+' : '−'}${format(Math.abs(value))}`;
}
