export { buildReport } from './build-report.js';
export type * from './model.js';
export { notRunResult, type PlannedCase } from './not-run.js';
export { renderJson } from './render-json.js';
export { renderMarkdown } from './render-markdown.js';
export { type ProgressLineOptions, renderProgressLine } from './render-progress.js';
export { renderTable, type TableOptions } from './render-table.js';
export { caseLabeler, suiteFiles } from './rows.js';
