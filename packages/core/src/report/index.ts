export { buildReport } from './build-report.js';
export type * from './model.js';
export { renderJson } from './render-json.js';
export { renderMarkdown } from './render-markdown.js';
export { renderProgressLine } from './render-progress.js';
export { renderTable, type TableOptions } from './render-table.js';
