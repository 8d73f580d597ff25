export { type CellChange, cellChange } from './cell-change.js';
export { type CellRule, CellRuleError, cellPasses, describeCellRule, parseCellRule } from './cell-rule.js';
export { type PassRateInterval, passRateInterval } from './clustered-interval.js';
export type { CaseTally } from './counts.js';
export { median } from './median.js';
export { type PairedTally, type PassRateDifference, passRateDifference } from './paired-difference.js';
export {
  type KeyedTally,
  type PairedCase,
  type PairedComparison,
  type PairedComparisonOptions,
  pairedComparison,
  SIGNIFICANCE_LEVEL,
} from './paired-test.js';
export { passAtK, passHatK } from './pass-at-k.js';
export { seededRandom, seededUint32 } from './prng.js';
export { type Interval, wilsonInterval, Z_95 } from './wilson.js';
