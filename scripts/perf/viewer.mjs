// Row 6.1: the page `gz-bench view` writes of a 10,000-row report (1,000 cases × 2 agents × 5 trials,
// each row naming a diff and a trajectory), opened from file:// in headless Chromium, offline: the time
// until the grid is drawn, plus a click on a cell until its trial's details show (the details are
// parsed on that first click). Target: within 2 s, as the viewer's issue asks.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { scaled } from './options.mjs';
import { duration, infoRow, measuredRow, unavailableRow } from './row.mjs';
import { firstLine, runGzBench } from './spawn.mjs';
import { median } from './stats.mjs';

const TARGET_MS = 2000;
const CHROMIUM = [process.env.GZ_BENCH_CHROMIUM, '/usr/bin/chromium'].find((path) => path && existsSync(path));

/** Row 6.1 and, for information, 6.2 (the filter). */
export async function viewerRows(context) {
  const { options, work } = context;
  const rows = scaled(options, 10_000);
  const what = `Opening the HTML page of a ${rows.toLocaleString('en')}-row report in Chromium, then a click on a cell`;
  const target = `≤ ${duration(TARGET_MS)}`;
  if (CHROMIUM === undefined)
    return [unavailableRow({ id: '6.1', what, target, reason: 'no Chromium', missed: false })];
  let chromium;
  try {
    ({ chromium } = await import('playwright-core'));
  } catch {
    return [unavailableRow({ id: '6.1', what, target, reason: 'playwright-core is not installed', missed: false })];
  }
  const dir = await work.dir('viewer');
  const report = join(dir, 'report.json');
  await writeBigReport(dir, report, rows);
  const view = await runGzBench(['view', report], { cwd: dir, env: context.env });
  if (view.code !== 0) return [unavailableRow({ id: '6.1', what, target, reason: firstLine(view) })];
  const url = pathToFileURL(join(dir, 'report.html')).href;
  const profile = await mkdtemp(join(work.tmp, 'chromium-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const figures = { open: [], click: [], filter: [] };
  try {
    await browser.route('**/*', (route) =>
      /^(file|data):/.test(route.request().url()) ? route.continue() : route.abort(),
    );
    for (let run = 0; run < options.cheapRuns; run += 1) {
      context.log(`6: viewer, ${rows} rows, run ${run + 1} of ${options.cheapRuns}`);
      const page = await browser.newPage();
      const started = performance.now();
      await page.goto(url);
      await page.locator('button.cell').first().waitFor();
      figures.open.push(performance.now() - started);
      const clicked = performance.now();
      await page.locator('button.cell').nth(3).click();
      await page.locator('#drawer .trial-body h3').first().waitFor();
      figures.click.push(performance.now() - clicked);
      const filtered = performance.now();
      await page.selectOption('select[name=tag]', { label: 'odd' });
      await page.locator('.filters .note', { hasText: /^\d+ of/ }).waitFor();
      figures.filter.push(performance.now() - filtered);
      await page.close();
    }
  } finally {
    await browser.close();
    await rm(profile, { recursive: true, force: true });
  }
  const open = median(figures.open);
  const click = median(figures.click);
  return [
    measuredRow({
      id: '6.1',
      what,
      baseline: '—',
      figure: `${duration(open + click)} (open ${duration(open)}, click ${duration(click)})`,
      value: duration(open + click),
      target,
      met: open + click <= TARGET_MS,
    }),
    infoRow({
      id: '6.2',
      what: 'The same page: choosing a tag in its filter until the grid is drawn again',
      baseline: '—',
      figure: duration(median(figures.filter)),
      value: duration(median(figures.filter)),
    }),
  ];
}

async function writeBigReport(dir, path, count) {
  const logs = '.gz-bench/logs/shared';
  await mkdir(join(dir, logs), { recursive: true });
  const diff = '--- a/out.txt\n+++ b/out.txt\n@@ -0,0 +1,3 @@\n+one\n+two\n+three\n'.repeat(50);
  await writeFile(join(dir, logs, 'changes.diff'), diff);
  const steps = [{ step_id: 1, source: 'user', message: 'Write out.txt.' }];
  for (let i = 2; i <= 8; i += 1) {
    steps.push({
      step_id: i,
      source: 'agent',
      message: 'Running a command.',
      tool_calls: [{ tool_call_id: `c${i}`, function_name: 'Bash', arguments: { command: `echo ${i} >> out.txt` } }],
      observation: { results: [{ source_call_id: `c${i}`, content: 'ok' }] },
    });
  }
  await writeFile(
    join(dir, logs, 'trajectory.json'),
    JSON.stringify({ schema_version: 'ATIF-v1.4', session_id: 's', agent: { name: 'a', version: '1' }, steps }),
  );
  const results = [];
  for (let index = 0; index < count; index += 1) {
    const c = Math.floor(index / 10);
    const passed = index % 3 !== 0;
    results.push({
      id: `case-${c}`,
      passed,
      outcome: passed ? 'passed' : 'failed',
      durationMs: 1000 + (index % 997),
      checkResults: [{ kind: 'fileExists', path: 'out.txt', passed }],
      suite: `suite-${c % 10}`,
      file: `bench/suite-${c % 10}.bench.json`,
      ...(passed ? {} : { error: 'file does not exist: out.txt', failedStep: 'check' }),
      agentName: index % 10 < 5 ? 'alpha' : 'beta',
      trial: (index % 5) + 1,
      tags: [c % 2 === 0 ? 'even' : 'odd'],
      changes: {
        added: 1,
        modified: 0,
        deleted: 0,
        linesAdded: 3,
        linesRemoved: 0,
        files: [{ path: 'out.txt', status: 'added' }],
        file: `${logs}/changes.diff`,
        diffBytes: diff.length,
      },
      trajectory: { format: 'claude-code', file: `${logs}/trajectory.json`, steps: 8, toolCalls: 7 },
    });
  }
  const passed = results.filter((row) => row.passed).length;
  await writeFile(path, JSON.stringify({ summary: { total: count, passed, failed: count - passed }, results }));
}
