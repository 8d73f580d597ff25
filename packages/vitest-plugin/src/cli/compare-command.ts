import * as fs from 'node:fs/promises';
import { dirname } from 'node:path';
import {
  buildComparison,
  type LoadedReport,
  ReportFileError,
  readReportFile,
  renderComparison,
  renderComparisonHtml,
  renderComparisonMarkdown,
} from '@gz-bench/core';
import { appendStepSummary } from '../node/step-summary.js';
import { EXIT } from './exit-codes.js';
import { parseStrict } from './parse-args.js';
import { writeOut } from './stdout.js';
import { UsageError } from './usage-error.js';

interface CompareFlags {
  json?: boolean;
  markdown?: string;
  html?: string;
}

/**
 * `gz-bench compare <base.json> <head.json> [--json] [--markdown FILE] [--html FILE]`: which cells flipped or changed
 * beyond noise between two reports. Exit 1 on a regression, 0 otherwise, 2 for a report it cannot read.
 */
export async function compareCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseStrict<CompareFlags>(args, {
    json: { type: 'boolean' },
    markdown: { type: 'string' },
    html: { type: 'string' },
  });
  const [basePath, headPath, ...extra] = positionals;
  if (basePath === undefined || headPath === undefined || extra.length > 0) {
    throw new UsageError('compare takes two reports: gz-bench compare <base.json> <head.json>');
  }

  let base: LoadedReport;
  let head: LoadedReport;
  try {
    [base, head] = await Promise.all([readReportFile(fs, basePath), readReportFile(fs, headPath)]);
  } catch (error) {
    if (!(error instanceof ReportFileError)) throw error;
    process.stderr.write(`gz-bench: ${error.message}\n`);
    return EXIT.usage;
  }
  const comparison = buildComparison(base, head);

  const markdown = renderComparisonMarkdown(comparison);
  // The files are written first: a path that cannot take one is one line, before any table.
  const outputs: Array<[string, string | undefined, () => string]> = [
    ['--markdown', values.markdown, () => markdown],
    ['--html', values.html, () => renderComparisonHtml(comparison)],
  ];
  for (const [flag, path, content] of outputs) {
    if (path === undefined) continue;
    try {
      await fs.mkdir(dirname(path), { recursive: true });
      await fs.writeFile(path, content());
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      process.stderr.write(`gz-bench: ${flag} ${path}: cannot write the comparison there (${code})\n`);
      return EXIT.usage;
    }
  }
  const color = process.stdout.isTTY === true && !('NO_COLOR' in process.env);
  await writeOut(
    values.json === true ? `${JSON.stringify(comparison, null, 2)}\n` : renderComparison(comparison, { color }),
  );
  await appendStepSummary(markdown, 'the comparison', (message) => process.stderr.write(`${message}\n`));
  return comparison.verdict === 'regression' ? EXIT.failed : EXIT.passed;
}
