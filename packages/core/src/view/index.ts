export { embedJson } from './embed-json.js';
export { relativeLink } from './links.js';
export {
  type DiffExcerpt,
  loadViewFiles,
  type NotEmbedded,
  type RowFiles,
  reportRows,
  VIEW_BUDGET,
  type ViewBudget,
  type ViewFs,
} from './load-files.js';
export { renderComparisonHtml, renderViewHtml, type ViewOptions } from './render-view.js';
export {
  shellCommand,
  trajectoryExcerpt,
  type ViewStep,
  type ViewToolCall,
  type ViewTrajectory,
} from './trajectory-excerpt.js';
