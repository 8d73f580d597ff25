import * as fs from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { loadViewFiles, relativeLink, renderViewHtml, reportRows } from '@gz-bench/core';

/**
 * Writes the report as one HTML page at `htmlPath` (absolute): the diff and trajectory files its rows
 * name are read from below `root`, the directory the rows name paths from, and linked relative to the
 * page. Throws the file system's error when the page cannot be written.
 */
export async function writeHtmlReport(report: unknown, htmlPath: string, root: string): Promise<void> {
  const pageDir = dirname(htmlPath);
  const files = await loadViewFiles(fs, reportRows(report), (path) => (isAbsolute(path) ? path : resolve(root, path)));
  const html = renderViewHtml(report, { files, linkFor: (path) => relativeLink(pageDir, root, path) });
  await fs.mkdir(pageDir, { recursive: true });
  await fs.writeFile(htmlPath, html);
}
