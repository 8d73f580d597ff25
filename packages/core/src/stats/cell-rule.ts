import { assertCount } from './counts.js';

/**
 * How a cell's trials decide its verdict: `majority` (strictly more than half pass), `all`, `any`, or
 * a fraction p in (0, 1] (at least that share passes; 0.5 lets exactly half pass, `majority` does not).
 */
export type CellRule = 'majority' | 'all' | 'any' | number;

/** Raised for a cell rule that is not `majority`, `all`, `any`, a fraction in (0, 1] or a percentage. */
export class CellRuleError extends Error {
  readonly code = 'GZ_BENCH_INVALID_CELL_RULE';
  override name = 'CellRuleError';
}

/** Whether a cell with `passes` of `trials` passing passes by `rule`. Throws a RangeError for bad counts. */
export function cellPasses(passes: number, trials: number, rule: CellRule): boolean {
  assertCount('trials', trials, 1);
  assertCount('passes', passes);
  if (passes > trials) throw new RangeError(`passes (${passes}) exceeds trials (${trials})`);
  switch (rule) {
    case 'majority':
      return passes * 2 > trials;
    case 'all':
      return passes === trials;
    case 'any':
      return passes > 0;
    default:
      if (!isFraction(rule)) throw new RangeError(`a fractional cell rule must lie in (0, 1], got ${rule}`);
      return passes / trials >= rule;
  }
}

const PERCENTAGE = /^(\d+(?:\.\d+)?|\.\d+)%$/;
const DECIMAL = /^(\d+(?:\.\d+)?|\.\d+)$/;

/**
 * Reads a cell rule as a user writes it: `majority`, `all`, `any`, a fraction such as `0.6`, or a
 * percentage such as `60%` (a number passes through the same range check). Throws a CellRuleError that
 * says what is accepted.
 */
export function parseCellRule(input: string | number): CellRule {
  if (typeof input === 'number') {
    if (isFraction(input)) return input;
    throw new CellRuleError(`invalid cell rule ${input}: ${ACCEPTED}`);
  }
  const text = input.trim().toLowerCase();
  if (text === 'majority' || text === 'all' || text === 'any') return text;
  const percentage = PERCENTAGE.exec(text);
  const value = percentage ? Number(percentage[1]) / 100 : DECIMAL.test(text) ? Number(text) : Number.NaN;
  if (isFraction(value)) return value;
  throw new CellRuleError(`invalid cell rule "${input}": ${ACCEPTED}`);
}

const ACCEPTED = 'use majority, all, any, a fraction in (0, 1] such as 0.6, or a percentage such as 60%';

/** Says in words when a cell passes by `rule`, e.g. `more than half of its trials pass`. */
export function describeCellRule(rule: CellRule): string {
  switch (rule) {
    case 'majority':
      return 'more than half of its trials pass';
    case 'all':
      return 'every trial passes';
    case 'any':
      return 'at least one trial passes';
    default:
      // toPrecision drops the float noise of e.g. 0.07 * 100 = 7.000000000000001.
      return `at least ${Number((rule * 100).toPrecision(6))}% of its trials pass`;
  }
}

function isFraction(value: number): boolean {
  return Number.isFinite(value) && value > 0 && value <= 1;
}
