import type { open as openType, stat as statType } from 'node:fs/promises';
import { list, record } from './loose.js';
import { trajectoryExcerpt, type ViewTrajectory } from './trajectory-excerpt.js';

/** The filesystem calls the loader needs: `node:fs/promises` or a memfs volume's `promises`. */
export interface ViewFs {
  stat: typeof statType;
  open: typeof openType;
}

/** The head of a trial's `changes.diff`, cut at a line end. */
export interface DiffExcerpt {
  text: string;
  /** The file goes on past the excerpt. */
  cut: boolean;
  /** Bytes of the whole file. */
  fileBytes: number;
}

/** A file the page could not embed, and why (missing, unreadable, over a bound). */
export interface NotEmbedded {
  missing: string;
}

/** What the page embeds of one row's files. */
export interface RowFiles {
  diff?: DiffExcerpt | NotEmbedded;
  trajectory?: ViewTrajectory | NotEmbedded;
}

/** Bounds of what the page embeds. */
export interface ViewBudget {
  /** Bytes of one diff excerpt, characters of one trajectory excerpt. @default 65536 */
  perFile?: number;
  /** Bytes of every excerpt together (as above); rows past it link their files only. @default 16 MiB */
  total?: number;
}

/** Default bounds: 64 KiB per excerpt, 16 MiB for the page. */
export const VIEW_BUDGET = { perFile: 64 * 1024, total: 16 * 1024 * 1024 } as const;

/** Less budget than this left is spent: an excerpt of a few lines helps nobody. */
const MIN_EXCERPT = 1024;

/** A `trajectory.json` larger than this is not parsed for the page (the writer bounds its own files far below). */
const MAX_TRAJECTORY_FILE = 32 * 1024 * 1024;

/**
 * Reads, for each report row, the head of its `changes.diff` and an excerpt of its `trajectory.json`
 * within the budget. `resolvePath` turns the path a row names into one to open (or undefined). Failing
 * rows are served first, so a spent budget costs passing rows their excerpts, not the failures.
 * Never throws for a file: a fault is a note on the row.
 */
export async function loadViewFiles(
  fs: ViewFs,
  rows: readonly unknown[],
  resolvePath: (path: string) => string | undefined,
  budget: ViewBudget = {},
): Promise<Map<number, RowFiles>> {
  const perFile = budget.perFile ?? VIEW_BUDGET.perFile;
  let left = budget.total ?? VIEW_BUDGET.total;
  const order = rows.map((_, index) => index);
  order.sort((a, b) => Number(record(rows[a])?.passed === true) - Number(record(rows[b])?.passed === true) || a - b);
  const files = new Map<number, RowFiles>();
  const spent: NotEmbedded = {
    missing: `not embedded: the page's ${Math.round((budget.total ?? VIEW_BUDGET.total) / 1024)} KiB for excerpts were spent on other trials`,
  };
  for (const index of order) {
    const row = record(rows[index]);
    const diffPath = fileOf(row?.changes);
    const trajectoryPath = fileOf(row?.trajectory);
    if (diffPath === undefined && trajectoryPath === undefined) continue;
    const entry: RowFiles = {};
    if (diffPath !== undefined) {
      const diff = left < MIN_EXCERPT ? spent : await readDiff(fs, resolvePath(diffPath), Math.min(perFile, left));
      if ('text' in diff) left -= Buffer.byteLength(diff.text);
      entry.diff = diff;
    }
    if (trajectoryPath !== undefined) {
      const trajectory =
        left < MIN_EXCERPT ? spent : await readTrajectory(fs, resolvePath(trajectoryPath), Math.min(perFile, left));
      if ('steps' in trajectory) left -= JSON.stringify(trajectory).length;
      entry.trajectory = trajectory;
    }
    files.set(index, entry);
  }
  return files;
}

function fileOf(part: unknown): string | undefined {
  const file = record(part)?.file;
  return typeof file === 'string' && file !== '' ? file : undefined;
}

async function readDiff(fs: ViewFs, path: string | undefined, max: number): Promise<DiffExcerpt | NotEmbedded> {
  if (path === undefined) return { missing: 'not embedded: the path cannot be read from here' };
  try {
    const stats = await fs.stat(path);
    if (!stats.isFile()) return { missing: 'not embedded: not a regular file' };
    const handle = await fs.open(path, 'r');
    try {
      const wanted = Math.min(stats.size, max);
      const buffer = Buffer.alloc(wanted);
      const { bytesRead } = await handle.read(buffer, 0, wanted, 0);
      let bytes = buffer.subarray(0, bytesRead);
      const cut = bytesRead < stats.size;
      // Cut at the last line end, so no line (nor a UTF-8 sequence) is shown half.
      if (cut) {
        const end = bytes.lastIndexOf(0x0a);
        if (end > 0) bytes = bytes.subarray(0, end + 1);
      }
      return { text: bytes.toString('utf8'), cut, fileBytes: stats.size };
    } finally {
      await handle.close();
    }
  } catch (error) {
    return { missing: `not embedded: ${fault(error)}` };
  }
}

async function readTrajectory(
  fs: ViewFs,
  path: string | undefined,
  max: number,
): Promise<ViewTrajectory | NotEmbedded> {
  if (path === undefined) return { missing: 'not embedded: the path cannot be read from here' };
  try {
    const stats = await fs.stat(path);
    if (!stats.isFile()) return { missing: 'not embedded: not a regular file' };
    if (stats.size > MAX_TRAJECTORY_FILE) return { missing: `not embedded: ${stats.size} bytes is too large to read` };
    const handle = await fs.open(path, 'r');
    let raw: string;
    try {
      raw = (await handle.readFile()).toString('utf8');
    } finally {
      await handle.close();
    }
    let data: unknown;
    try {
      data = JSON.parse(raw);
    } catch {
      return { missing: 'not embedded: the file is not valid JSON' };
    }
    return trajectoryExcerpt(data, max) ?? { missing: 'not embedded: the file is not a trajectory (no "steps")' };
  } catch (error) {
    return { missing: `not embedded: ${fault(error)}` };
  }
}

function fault(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'the file does not exist';
  if (code === 'EACCES' || code === 'EPERM') return 'the file cannot be read (permission denied)';
  return `the file cannot be read (${code ?? (error as Error).message})`;
}

/** Rows of a report, whatever the report holds. */
export function reportRows(report: unknown): unknown[] {
  return list(record(report)?.results);
}
