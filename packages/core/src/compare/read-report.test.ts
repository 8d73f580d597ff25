import { Volume } from 'memfs';
import { describe, expect, it } from 'vitest';
import { MAX_REPORT_BYTES, ReportFileError, type ReportFs, readReportFile } from './read-report.js';

const validReport = {
  summary: { total: 1, passed: 1, failed: 0 },
  results: [{ suite: 'demo', file: 'bench/demo.bench.json', id: 'a', passed: true, outcome: 'passed', durationMs: 5 }],
};

function volume(files: Record<string, string>): ReportFs {
  return Volume.fromJSON(files, '/').promises as unknown as ReportFs;
}

async function failure(fs: ReportFs, path: string): Promise<string> {
  const error = await readReportFile(fs, path).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ReportFileError);
  return (error as Error).message;
}

describe('readReportFile', () => {
  it('reads a report and its pass rule, majority when it records none', async () => {
    const fs = volume({
      '/a.json': JSON.stringify(validReport),
      '/b.json': JSON.stringify({ ...validReport, scoreboard: { rule: 0.6 } }),
    });
    const a = await readReportFile(fs, '/a.json');
    expect(a.rule).toBe('majority');
    expect(a.report.results[0]?.id).toBe('a');
    expect((await readReportFile(fs, '/b.json')).rule).toBe(0.6);
  });

  it('reads a report of an older version, without outcome, agentName or trial', async () => {
    const fs = volume({
      '/old.json': JSON.stringify({
        summary: { total: 1, passed: 0, failed: 1 },
        results: [{ suite: 'demo', file: 'x.json', id: 'a', passed: false, failedStep: 'check', checkResults: [] }],
      }),
    });
    expect((await readReportFile(fs, '/old.json')).report.results[0]?.failedStep).toBe('check');
  });

  it('says in one line what is wrong with a file that is missing, a directory, or not JSON', async () => {
    const fs = volume({ '/dir/x': '', '/bad.json': '{"summary": ' });
    expect(await failure(fs, '/missing.json')).toBe('/missing.json does not exist');
    expect(await failure(fs, '/dir')).toBe('/dir is a directory, not a gz-bench JSON report');
    expect(await failure(fs, '/bad.json')).toMatch(/^\/bad\.json is not valid JSON \(.+\)$/);
  });

  it('tells JSON that is no gz-bench report from a report with a bad row', async () => {
    const fs = volume({
      '/package.json': JSON.stringify({ name: 'x' }),
      '/array.json': '[1, 2]',
      '/row.json': JSON.stringify({ ...validReport, results: [{ ...validReport.results[0], id: 7 }] }),
      '/rule.json': JSON.stringify({ ...validReport, scoreboard: { rule: 'sometimes' } }),
    });
    const notReport =
      'is not a gz-bench JSON report (no "summary" and "results"); pass the file that gz-bench run --json or the report option writes';
    expect(await failure(fs, '/package.json')).toBe(`/package.json ${notReport}`);
    expect(await failure(fs, '/array.json')).toBe(`/array.json ${notReport}`);
    expect(await failure(fs, '/row.json')).toBe(
      '/row.json is not a valid gz-bench report: results[0].id: expected string, received number',
    );
    expect(await failure(fs, '/rule.json')).toBe(
      '/rule.json is not a valid gz-bench report: scoreboard.rule: unknown pass rule "sometimes"',
    );
  });

  it('refuses a file larger than any report before reading it', async () => {
    const real = volume({ '/huge.json': '{}' });
    let read = false;
    const fs: ReportFs = {
      stat: (async (path: string) => {
        const stats = await real.stat(path);
        return Object.assign(stats, { size: MAX_REPORT_BYTES + 1 });
      }) as ReportFs['stat'],
      readFile: (async () => {
        read = true;
        return '{}';
      }) as unknown as ReportFs['readFile'],
    };
    expect(await failure(fs, '/huge.json')).toBe(
      `/huge.json is ${MAX_REPORT_BYTES + 1} bytes, larger than the 512 MB a gz-bench report can be`,
    );
    expect(read).toBe(false);
  });
});
