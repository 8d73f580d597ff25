import type { Comparison } from '../compare/model.js';
import type { RowFiles } from './load-files.js';
import { renderPage } from './render-page.js';
import { buildViewData, type LinkFor } from './view-model.js';

/** What the report page needs besides the report. */
export interface ViewOptions {
  /** Excerpts of each row's `changes.diff` and `trajectory.json`, by row index (see `loadViewFiles`). */
  files?: ReadonlyMap<number, RowFiles>;
  /** The link from the page to a file a row names (see `relativeLink`); without it nothing is linked. */
  linkFor?: LinkFor;
  /** The page's heading. @default 'gz-bench report' */
  title?: string;
}

/**
 * The report as one self-contained HTML page: scoreboard grid, agents' scores, verdict, baseline and
 * sweep, and every trial's checks, diff and trajectory on a click. Pure: the caller reads the files.
 */
export function renderViewHtml(report: unknown, options: ViewOptions = {}): string {
  const { data, details } = buildViewData(
    report,
    options.files ?? new Map(),
    options.linkFor ?? (() => undefined),
    options.title,
  );
  return renderPage(data, details);
}

/** A comparison of two reports (see compare/) as one self-contained HTML page, drawn by the same script. */
export function renderComparisonHtml(comparison: Comparison, title = 'gz-bench comparison'): string {
  return renderPage({ kind: 'compare', title, comparison }, []);
}
