import { formatPercent, formatPValue } from '../report/scoreboard-text.js';
import { type CellLabeler, cellSentence, movedWithinNoise } from './cell-text.js';
import type { ComparedCell, ComparisonVerdict, PairedTest } from './model.js';

/** Cells a sentence names before it says `and N more`. */
const NAMED_CELLS = 3;

/** An agent's verdict and the one sentence that says why. */
export interface AgentVerdict {
  verdict: ComparisonVerdict;
  reason: string;
  regressions: number;
  improvements: number;
  withinNoise: number;
}

/**
 * Decides an agent's verdict over its cells in both runs: a regression when any cell regressed or the
 * paired test finds head significantly worse; an improvement when none regressed and a cell improved or
 * the paired test finds head better; otherwise within noise. Cells that moved without significance are
 * named too, so a reader sees that they were weighed and found to be chance.
 */
export function agentVerdict(cells: readonly ComparedCell[], paired: PairedTest, label: CellLabeler): AgentVerdict {
  const regressed = cells.filter((cell) => cell.change?.verdict === 'regression');
  const improved = cells.filter((cell) => cell.change?.verdict === 'improvement');
  const noise = cells.filter(movedWithinNoise);
  const pairedWorse = paired.significant && paired.meanDifference < 0;
  const pairedBetter = paired.significant && paired.meanDifference > 0;

  const parts: string[] = [];
  let verdict: ComparisonVerdict;
  if (regressed.length > 0 || pairedWorse) {
    verdict = 'regression';
    parts.push(regressed.length > 0 ? listed(regressed, label) : pairedSentence(paired));
    if (improved.length > 0) parts.push(`${counted(improved.length)} improved (${listed(improved, label)})`);
  } else if (improved.length > 0 || pairedBetter) {
    verdict = 'improvement';
    parts.push(improved.length > 0 ? listed(improved, label) : pairedSentence(paired));
  } else {
    verdict = 'within noise';
    parts.push(
      noise.length === 0
        ? cells.some((cell) => cell.change !== null)
          ? 'no case changed'
          : 'no case ran on both sides'
        : `${counted(noise.length)} changed, none significantly (${listed(noise, label)})`,
    );
  }
  if (verdict !== 'within noise' && noise.length > 0) {
    parts.push(`${counted(noise.length)} changed within noise (${listed(noise, label)})`);
  }
  // A run cut short must not read as a clean bill: what could not be compared is said.
  const uncompared = cells.filter((cell) => cell.change === null).length;
  if (uncompared > 0) parts.push(`${counted(uncompared)} not compared (no trial ran on one side)`);
  return {
    verdict,
    reason: `${verdict}: ${parts.join('; ')}`,
    regressions: regressed.length,
    improvements: improved.length,
    withinNoise: noise.length,
  };
}

/** The verdict over all agents: a regression anywhere is a regression of the run. */
export function overallVerdict(verdicts: readonly ComparisonVerdict[]): ComparisonVerdict {
  if (verdicts.includes('regression')) return 'regression';
  if (verdicts.includes('improvement')) return 'improvement';
  return 'within noise';
}

function pairedSentence(paired: PairedTest): string {
  const direction = paired.meanDifference < 0 ? 'less' : 'more';
  const size = formatPercent(Math.abs(paired.meanDifference));
  if (paired.meanDifference === 0) return `paired test over ${counted(paired.cases)}: no difference`;
  return `paired test over ${counted(paired.cases)}: head passes ${size} ${direction} often, ${formatPValue(paired.pValue)}`;
}

function listed(cells: readonly ComparedCell[], label: CellLabeler): string {
  const named = cells.slice(0, NAMED_CELLS).map((cell) => cellSentence(cell, label));
  const more = cells.length - named.length;
  return more > 0 ? `${named.join('; ')}; and ${more} more` : named.join('; ');
}

function counted(cases: number): string {
  return `${cases} ${cases === 1 ? 'case' : 'cases'}`;
}
