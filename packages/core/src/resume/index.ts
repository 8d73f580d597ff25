export { EarlierReportError, parseEarlierReport } from './earlier-report.js';
export {
  type EarlierCells,
  groupEarlierRows,
  type PlannedCells,
  planResumeCell,
  type ResumeCell,
  resumeCellKey,
  unmatchedEarlierRows,
} from './resume-plan.js';
