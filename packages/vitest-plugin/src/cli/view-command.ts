import * as fs from 'node:fs/promises';
import { basename, dirname, extname, isAbsolute, join, resolve } from 'node:path';
import { ReportFileError, readReportFile } from '@gz-bench/core';
import { writeHtmlReport } from '../node/html-report.js';
import { EXIT } from './exit-codes.js';
import { parseStrict } from './parse-args.js';
import { writeOut } from './stdout.js';
import { UsageError } from './usage-error.js';

interface ViewFlags {
  output?: string;
  root?: string;
}

/**
 * `gz-bench view <report.json> [-o FILE] [--root DIR]`: writes the report as one self-contained HTML
 * page (default: beside the report, `report.html`) and prints its path. Exit 2 for a report it cannot read.
 */
export async function viewCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseStrict<ViewFlags>(args, {
    output: { type: 'string', short: 'o' },
    root: { type: 'string' },
  });
  const [reportPath, ...extra] = positionals;
  if (reportPath === undefined || extra.length > 0) {
    throw new UsageError('view takes one report: gz-bench view <report.json> [-o report.html]');
  }
  let report: unknown;
  try {
    report = (await readReportFile(fs, reportPath)).report;
  } catch (error) {
    if (!(error instanceof ReportFileError)) throw error;
    process.stderr.write(`gz-bench: ${error.message}\n`);
    return EXIT.usage;
  }
  const out = resolve(values.output ?? join(dirname(reportPath), `${basename(reportPath, extname(reportPath))}.html`));
  const root = values.root === undefined ? await guessRoot(report, resolve(reportPath)) : resolve(values.root);
  try {
    await writeHtmlReport(report, out, root);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    process.stderr.write(`gz-bench: ${values.output ?? out}: cannot write the page there (${code})\n`);
    return EXIT.usage;
  }
  await writeOut(`${out}\n`);
  return EXIT.passed;
}

/**
 * The directory a report's relative paths start from (the Vitest root), which the report does not
 * record: of the current directory, the report's own and the one above a `.gz-bench` directory, the
 * first where the first file a row names exists; the current directory when none does.
 */
async function guessRoot(report: unknown, reportPath: string): Promise<string> {
  const reportDir = dirname(reportPath);
  const candidates = [process.cwd(), ...(basename(reportDir) === '.gz-bench' ? [dirname(reportDir)] : []), reportDir];
  const named = firstNamedPath(report);
  if (named === undefined) return process.cwd();
  for (const candidate of candidates) {
    try {
      await fs.stat(resolve(candidate, named));
      return candidate;
    } catch {}
  }
  return process.cwd();
}

function firstNamedPath(report: unknown): string | undefined {
  const rows = (report as { results?: unknown }).results;
  if (!Array.isArray(rows)) return undefined;
  for (const row of rows.slice(0, 1000)) {
    const fields = row as { agent?: { log?: unknown }; changes?: { file?: unknown }; trajectory?: { file?: unknown } };
    for (const path of [fields.agent?.log, fields.changes?.file, fields.trajectory?.file]) {
      if (typeof path === 'string' && path !== '' && !isAbsolute(path)) return path;
    }
  }
  return undefined;
}
