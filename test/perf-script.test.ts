import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/paths.js';
import { cleanEnv } from './support/run.js';

// The benchmark script at its smallest (every size scaled down, one run of each): it must produce
// every row, each with a figure or an explicit reason, and write the document where it is told.
// Its figures at this scale mean nothing, and no timing is asserted.

const ROW_IDS = [
  '1.1',
  '1.2',
  '1.3',
  '1.4',
  '1.5',
  '1.6',
  '1.7',
  '2.1',
  '2.2',
  '2.3',
  '2.4',
  '2.5',
  '2.6',
  '3.1',
  '3.2',
  '3.3',
  '3.4',
  '4.1',
  '4.2',
  '5.1',
  '5.2',
  '6.1',
  '6.2',
  '7.1',
  '7.2',
];
const RESULTS = ['met', 'MISSED', 'info', 'n/a'];

interface TableRow {
  id: string;
  cells: string[];
}

/** The table rows of `text`: Markdown lines whose first cell is a row id. */
function tableRows(text: string): TableRow[] {
  return text
    .split('\n')
    .filter((line) => /^\| \d+\.\d+ \|/.test(line))
    .map((line) => {
      // Cells are split at pipes that are not escaped (a reason may contain `\|`).
      const cells = line
        .slice(2, -2)
        .split(/ (?<!\\)\| /)
        .map((cell) => cell.trim());
      return { id: cells[0] ?? '', cells };
    });
}

describe('pnpm perf', () => {
  let dir: string;
  let result: Awaited<ReturnType<typeof execa>>;
  let out: string;
  let tmp: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gz-bench-perf-test-'));
    tmp = join(dir, 'tmp');
    out = join(dir, 'out', 'performance.md');
    await mkdir(tmp);
    result = await execa(process.execPath, [join(REPO_ROOT, 'scripts', 'perf.mjs'), '--quick'], {
      cwd: REPO_ROOT,
      env: cleanEnv({ TMPDIR: tmp, GZ_BENCH_PERF_SCALE: '0.01', GZ_BENCH_PERF_OUT: out }),
      extendEnv: false,
      reject: false,
      stdin: 'ignore',
      timeout: 540_000,
    });
  }, 600_000);

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('ends with exit code 0', () => {
    expect(result.stderr).not.toMatch(/perf: stopped/);
    expect(result.exitCode).toBe(0);
  });

  it('describes the machine before the table', () => {
    const stdout = String(result.stdout);
    for (const label of ['Cores', 'RAM', 'Node', 'OS', 'Temp dir', 'Sandbox', 'Run as root', 'Runs']) {
      expect(stdout).toMatch(new RegExp(`^- \\*\\*${label}:\\*\\* \\S`, 'm'));
    }
    expect(stdout).toContain(`- **Node:** ${process.version}`);
    expect(stdout.indexOf('**Cores:**')).toBeLessThan(stdout.indexOf('| # |'));
  });

  it('prints every row, each with a figure or an explicit reason and a verdict', () => {
    const rows = tableRows(String(result.stdout));
    expect(rows.map((row) => row.id)).toEqual(ROW_IDS);
    for (const { id, cells } of rows) {
      expect(cells, id).toHaveLength(7);
      const [, what, , figure, , , verdict] = cells;
      expect(what, id).not.toBe('');
      expect(figure, id).toMatch(/^(-?[\d.]+ (ms|s|MiB)\b|not available: \S)/);
      expect(RESULTS, id).toContain(verdict);
      // A figure that is missing can never count as a met target.
      if (figure?.startsWith('not available')) expect(verdict, id).not.toBe('met');
    }
  });

  it('writes the same table to the document it is told to, after an introduction', async () => {
    const document = await readFile(out, 'utf8');
    expect(document).toMatch(/^# Performance\n/);
    expect(document).toContain('pnpm perf --quick');
    const stdout = String(result.stdout);
    const table = stdout.slice(0, stdout.indexOf('targets met') + 'targets met'.length);
    expect(document).toContain(table);
    expect(tableRows(document).map((row) => row.id)).toEqual(ROW_IDS);
  });

  it('leaves nothing behind in its temp dir and no process running', async () => {
    expect(await readdir(tmp)).toEqual([]);
    expect(String(result.stdout)).toContain('The harness runs left no process running and nothing in their TMPDIR.');
  });
});
