export { buildComparison } from './build-comparison.js';
export type * from './model.js';
export { type LoadedReport, MAX_REPORT_BYTES, ReportFileError, type ReportFs, readReportFile } from './read-report.js';
export { type ComparisonRenderOptions, renderComparison } from './render-comparison.js';
export { renderComparisonMarkdown } from './render-comparison-markdown.js';
