import type { readFile as readFileType, stat as statType } from 'node:fs/promises';
import { type CellRule, parseCellRule } from '../stats/cell-rule.js';
import { describeIssue } from '../suite/issues.js';
import { type ComparedReport, ComparedReportSchema } from './report-schema.js';

/** Raised for a report file that is missing, unreadable, not JSON, or not a gz-bench report; the message says which and where. */
export class ReportFileError extends Error {
  readonly code = 'GZ_BENCH_INVALID_REPORT';
  override name = 'ReportFileError';
}

/** The filesystem calls `readReportFile` needs: `node:fs/promises` or a memfs volume's `promises`. */
export interface ReportFs {
  stat: typeof statType;
  readFile: typeof readFileType;
}

/** A report read for a comparison, with the pass rule its cells are decided by. */
export interface LoadedReport {
  path: string;
  report: ComparedReport;
  rule: CellRule;
}

/**
 * Reports far larger than any run writes are refused before they are read: a mistyped path to a disk
 * image or a log should cost a line, not the machine's memory.
 */
export const MAX_REPORT_BYTES = 512 * 1024 * 1024;

/** Reads and validates a gz-bench JSON report. Throws a ReportFileError of one line for any fault of the file. */
export async function readReportFile(fs: ReportFs, path: string): Promise<LoadedReport> {
  let size: number;
  try {
    const stats = await fs.stat(path);
    if (stats.isDirectory()) throw new ReportFileError(`${path} is a directory, not a gz-bench JSON report`);
    if (!stats.isFile()) throw new ReportFileError(`${path} is not a regular file`);
    size = stats.size;
  } catch (error) {
    throw readFault(path, error);
  }
  if (size > MAX_REPORT_BYTES) {
    throw new ReportFileError(
      `${path} is ${size} bytes, larger than the ${MAX_REPORT_BYTES / 1024 / 1024} MB a gz-bench report can be`,
    );
  }
  let text: string;
  try {
    text = await fs.readFile(path, 'utf8');
  } catch (error) {
    throw readFault(path, error);
  }
  return { path, ...parseReportText(text, path) };
}

/** Parses and validates a report's text; `name` says which file in messages. */
export function parseReportText(text: string, name: string): { report: ComparedReport; rule: CellRule } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ReportFileError(`${name} is not valid JSON (${(error as Error).message})`);
  }
  const parsed = ComparedReportSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined ? { path: '', reason: 'unreadable' } : describeIssue(issue, data);
    const isReport = typeof data === 'object' && data !== null && 'results' in data && 'summary' in data;
    throw new ReportFileError(
      isReport
        ? `${name} is not a valid gz-bench report: ${where.path === '' ? '' : `${where.path}: `}${where.reason}`
        : `${name} is not a gz-bench JSON report (no "summary" and "results"); pass the file that gz-bench run --json or the report option writes`,
    );
  }
  const written = parsed.data.scoreboard?.rule;
  let rule: CellRule = 'majority';
  if (written !== undefined) {
    try {
      rule = parseCellRule(written);
    } catch {
      throw new ReportFileError(
        `${name} is not a valid gz-bench report: scoreboard.rule: unknown pass rule ${JSON.stringify(written)}`,
      );
    }
  }
  return { report: parsed.data, rule };
}

function readFault(path: string, error: unknown): ReportFileError {
  if (error instanceof ReportFileError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new ReportFileError(`${path} does not exist`);
  if (code === 'EACCES' || code === 'EPERM') return new ReportFileError(`${path} cannot be read (permission denied)`);
  return new ReportFileError(`${path} cannot be read (${code ?? (error as Error).message})`);
}
