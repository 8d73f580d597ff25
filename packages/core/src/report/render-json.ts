import type { Report } from './model.js';

/** Renders the machine-readable report: two-space indented JSON with a final newline. */
export function renderJson(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
