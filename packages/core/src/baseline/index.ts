export {
  BASELINE_VERSION,
  type Baseline,
  type BaselineCases,
  type BaselineEntry,
  baselineEntry,
  baselinePathFor,
  emptyBaseline,
  isBaselinePath,
  renderBaseline,
  suitePathOf,
} from './baseline-file.js';
export {
  type BaselineChange,
  type BaselineSummary,
  renderBaselineSummary,
  summarizeBaseline,
} from './baseline-summary.js';
export { type BaselineJudgement, type BaselineVerdict, type CellJudgement, formatP, judgeCell } from './judge-cell.js';
export { BaselineError, parseBaseline } from './parse-baseline.js';
export { type ObsoleteEntry, obsoleteEntries, type RanCell, updateBaseline } from './update-baseline.js';
