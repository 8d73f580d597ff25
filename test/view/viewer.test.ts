import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect as expectOutside, it } from 'vitest';
import { cleanupAfterAll } from '../support/cleanup.js';
import { REPO_ROOT } from '../support/paths.js';
import { runCli } from '../support/run.js';
import { type Browser, noBrowser, startBrowser } from './support/browser.js';
import { HOSTILE, writeBigReport, writeSampleReport } from './support/sample-report.js';

// The page `gz-bench view` writes, opened from file:// in headless Chromium (offline: every request
// that is not file:// or data: is aborted and recorded): the grid, the drill-down to a trial's diff and
// trajectory, the filters, hostile strings, and a report of 10,000 rows.

const { project } = cleanupAfterAll();

async function viewPage(root: string, report: string, args: string[] = []): Promise<string> {
  const result = await runCli(['view', report, ...args], { cwd: root });
  if (result.exitCode !== 0) throw new Error(`gz-bench view failed: ${result.stderr}`);
  return pathToFileURL(String(result.stdout).trim()).href;
}

describe.skipIf(noBrowser)(`the HTML viewer in Chromium${noBrowser ? ` (skipped: ${noBrowser})` : ''}`, () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await startBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    // Nothing the pages did may have left the machine.
    expectOutside(browser?.blocked ?? []).toEqual([]);
  });

  it('draws the grid of agents × cases, and a click opens the cell’s trials, diff and trajectory', async ({
    expect,
  }) => {
    const temp = await project();
    const page = await browser.open(await viewPage(temp.dir, await writeSampleReport(temp.dir)));
    const headers = await page.locator('table.grid th').allTextContents();
    expect(headers).toEqual(['case', 'claude-code', 'codex', 'gemini']);
    const rows = page.locator('table.grid tbody tr:not(.group)');
    expect(await rows.locator('td.case').allTextContents()).toEqual([
      'write-hello',
      'fix-greeting',
      'fix-off-by-one',
      'rename-module',
    ]);
    const offByOne = rows.nth(2).locator('button.cell');
    expect(await offByOne.allTextContents()).toEqual(['2/3~✓', '0/3!✗', '1/3~✗']);
    expect(
      await page.locator('section.panel', { hasText: 'Agents' }).locator('tbody tr').first().textContent(),
    ).toContain('83%');
    await expect.poll(() => page.locator('.verdict').first().textContent()).toContain('within noise');

    await offByOne.nth(1).click();
    const drawer = page.locator('#drawer');
    await drawer.waitFor({ state: 'visible' });
    expect(await drawer.locator('h2').textContent()).toBe('fix-off-by-one');
    expect(await drawer.locator('button.trial').allTextContents()).toEqual([
      '#1 fail 10.1 s',
      '#2 fail 11.4 s',
      '#3 agent error 12.8 s',
    ]);
    // The diff, coloured by line.
    expect(await drawer.locator('.diff .del').first().textContent()).toBe(
      '-  for (let i = start; i < end; i++) out.push(i);',
    );
    expect(await drawer.locator('.diff .add').first().textContent()).toBe(
      '+  for (let i = start; i <= end; i++) out.push(i);',
    );
    expect(await drawer.locator('.diff .hunk').count()).toBe(2);
    expect(await drawer.locator('table.files tbody tr').allTextContents()).toEqual([
      'src/range.jsmodified+1−1',
      'test/range.test.jsadded+6−0',
    ]);
    // The trajectory: the prompt, then each tool call in order, a shell command as a command.
    expect(await drawer.locator('.step .who b').allTextContents()).toEqual([
      'prompt',
      'agent',
      'agent',
      'agent',
      'agent',
    ]);
    expect(await drawer.locator('details.call > summary').allTextContents()).toEqual([
      'Bash $ cat src/range.js',
      'Edit src/range.js',
      'Write test/range.test.js',
      'exec_command $ node test/range.test.js error',
    ]);
    expect(await drawer.locator('.step .tok').first().textContent()).toBe('in 1840 · out 96 · cached 1200');
    // Reasoning and calls are folded until opened.
    const reasoning = drawer.locator('.step details:not(.call)').first();
    expect(await reasoning.evaluate((node) => (node as unknown as { open: boolean }).open)).toBe(false);
    // Links to the full files are relative to the page.
    expect(await drawer.locator('a', { hasText: 'trajectory.json' }).getAttribute('href')).toBe(
      'logs/bench_bugfix.bench.json/fix-off-by-one/codex/trial-1/trajectory.json',
    );
    // Another trial of the cell.
    await drawer.locator('button.trial').nth(2).click();
    expect(await drawer.locator('.trial-body .kv').first().textContent()).toContain('agent error');
    expect(await drawer.locator('.error-box').first().textContent()).toBe(
      'the agent exited 1: Error: rate limited (429)',
    );
    expect(page.errors).toEqual([]);
  });

  it('filters by agent, outcome, tag and text', async ({ expect }) => {
    const temp = await project();
    const page = await browser.open(await viewPage(temp.dir, await writeSampleReport(temp.dir)));
    const cases = () => page.locator('table.grid td.case').allTextContents();
    await page.selectOption('select[name=agent]', { label: 'gemini' });
    expect(await page.locator('table.grid th').allTextContents()).toEqual(['case', 'gemini']);
    await page.selectOption('select[name=agent]', { label: 'all agents' });
    await page.selectOption('select[name=outcome]', { label: 'timeout' });
    expect(await cases()).toEqual(['rename-module']);
    expect(await page.locator('button.cell:not(.empty)').count()).toBe(1);
    await page.selectOption('select[name=outcome]', { label: 'all outcomes' });
    await page.selectOption('select[name=tag]', { label: 'refactor' });
    expect(await cases()).toEqual(['rename-module']);
    await page.selectOption('select[name=tag]', { label: 'all tags' });
    await page.fill('input[name=search]', 'greet');
    await expect.poll(cases).toEqual(['fix-greeting']);
    await page.fill('input[name=search]', 'rate limited');
    await expect.poll(cases).toEqual(['fix-off-by-one']);
    expect(await page.locator('.filters .note').textContent()).toBe('1 of 4 cases');
  });

  it('shows hostile ids, names, output, diffs and trajectories as text, and runs none of them', async ({ expect }) => {
    const temp = await project();
    const page = await browser.open(await viewPage(temp.dir, await writeSampleReport(temp.dir, { hostile: true })));
    expect(await page.locator('table.grid td.case').first().textContent()).toBe(`write-hello ${HOSTILE.script}`);
    expect(await page.locator('table.grid th').last().textContent()).toBe(`gemini ${HOSTILE.attribute}`);
    await page.locator('table.grid tbody tr:not(.group)').first().locator('button.cell').last().click();
    const drawer = page.locator('#drawer');
    await drawer.waitFor({ state: 'visible' });
    await drawer.locator('details').evaluateAll((nodes) => {
      for (const node of nodes) (node as unknown as { open: boolean }).open = true;
    });
    const text = (await drawer.textContent()) ?? '';
    expect(text).toContain(HOSTILE.script);
    expect(text).toContain(HOSTILE.attribute);
    expect(text).toContain(`echo '${HOSTILE.script}' ${HOSTILE.url}`);
    expect(await drawer.locator('.diff .add').last().textContent()).toBe(`+${HOSTILE.attribute}`);
    expect(await drawer.locator('table.files td').first().textContent()).toBe(`src/${HOSTILE.attribute}.js`);
    // No element, handler or link came out of the data.
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.locator('[onerror]').count()).toBe(0);
    expect(await page.locator('script').count()).toBe(3);
    const hrefs = await page
      .locator('a[href]')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('href') ?? ''));
    expect(hrefs.length).toBeGreaterThan(0);
    for (const href of hrefs) expect(href).not.toMatch(/^[a-z][a-z0-9+.-]*:|^\/\//i);
    expect(hrefs.some((href) => href.endsWith('javascript%3Aalert(1)'))).toBe(true);
    expect(page.dialogs).toEqual([]);
    expect(page.errors).toEqual([]);
    // A script that got into the markup anyway would be refused by the page's policy.
    const ran = await page.evaluate(`(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__ran = true';
      document.body.appendChild(script);
      return window.__ran === true;
    })()`);
    expect(ran).toBe(false);
  });

  it('opens an empty report, and a report of an older version without outcomes or agents', async ({ expect }) => {
    const temp = await project();
    await writeFile(
      join(temp.dir, 'empty.json'),
      JSON.stringify({ summary: { total: 0, passed: 0, failed: 0 }, results: [] }),
    );
    const empty = await browser.open(await viewPage(temp.dir, join(temp.dir, 'empty.json')));
    expect(await empty.locator('.empty-state').textContent()).toBe('This report has no results.');
    const old = {
      summary: { total: 2, passed: 1, failed: 1 },
      results: [
        { id: 'a', suite: 's', file: 'f.json', passed: true, durationMs: 5, checkResults: [] },
        {
          id: 'b',
          suite: 's',
          file: 'f.json',
          passed: false,
          durationMs: 5,
          checkResults: [],
          error: 'nope',
          agent: { outputTail: 'raw output' },
        },
      ],
    };
    await writeFile(join(temp.dir, 'old.json'), JSON.stringify(old));
    const page = await browser.open(await viewPage(temp.dir, join(temp.dir, 'old.json')));
    expect(await page.locator('table.grid th').allTextContents()).toEqual(['case', 'result']);
    expect(await page.locator('button.cell').allTextContents()).toEqual(['PASS', 'FAIL']);
    await page.locator('button.cell').nth(1).click();
    expect(await page.locator('#drawer pre').last().textContent()).toBe('raw output');
    expect([...empty.errors, ...page.errors]).toEqual([]);
  });

  it('draws a comparison from gz-bench compare --html', async ({ expect }) => {
    const temp = await project();
    const base = await writeSampleReport(join(temp.dir, 'base'));
    const head = await writeSampleReport(join(temp.dir, 'head'), { hostile: true });
    const result = await runCli(['compare', base, head, '--html', 'cmp.html'], { cwd: temp.dir });
    expect(result.exitCode).toBeLessThan(2);
    const page = await browser.open(pathToFileURL(join(temp.dir, 'cmp.html')).href);
    expect(await page.locator('header.top h1').textContent()).toBe('gz-bench comparison');
    expect(await page.locator('section.panel h2').allTextContents()).toContain('Agents');
    expect(await page.locator('section.panel', { hasText: 'New cells' }).locator('tbody tr').count()).toBeGreaterThan(
      0,
    );
    expect(page.dialogs).toEqual([]);
    expect(page.errors).toEqual([]);
  });

  it('shows the diff a real run wrote: gz-bench run --html, a click on the cell', async ({ expect }) => {
    const temp = await project({
      'bench/fix.bench.json': {
        name: 'fix',
        cases: [
          {
            id: 'greet',
            prompt: 'fix the greeting',
            setup: ['printf "const greeting = \'helo\';\\nexport default greeting;\\n" > greet.js'],
            checks: [{ kind: 'fileContains', path: 'greet.js', text: "'hello'" }],
          },
        ],
      },
    });
    const run = await runCli(
      [
        'run',
        'bench/fix.bench.json',
        '--cmd',
        'sed -i s/helo/hello/ greet.js && echo fixed > NOTES.md',
        '--sandbox',
        'none',
        '--logs',
        'logs',
        '--html',
        'page.html',
      ],
      { cwd: temp.dir },
    );
    expect(run.exitCode, String(run.stderr)).toBe(0);
    const page = await browser.open(pathToFileURL(join(temp.dir, 'page.html')).href);
    await page.locator('table.grid button.cell').first().click();
    const drawer = page.locator('#drawer');
    await drawer.waitFor({ state: 'visible' });
    expect(await drawer.locator('.diff .del').allTextContents()).toEqual(["-const greeting = 'helo';"]);
    expect(await drawer.locator('.diff .add').allTextContents()).toEqual(['+fixed', "+const greeting = 'hello';"]);
    expect(await drawer.locator('table.files tbody tr').allTextContents()).toEqual([
      'NOTES.mdadded+1−0',
      'greet.jsmodified+1−1',
    ]);
    expect(await drawer.locator('a', { hasText: 'changes.diff' }).getAttribute('href')).toMatch(
      /^logs\/bench_fix\.bench\.json-[0-9a-f]{12}\/greet\/changes\.diff$/,
    );
    expect(page.errors).toEqual([]);
  });

  it('opens a report of 10,000 rows, and a click and a filter respond', async ({ expect }) => {
    const temp = await project();
    const report = await writeBigReport(temp.dir, 10_000);
    const url = await viewPage(temp.dir, report);
    const started = performance.now();
    const page = await browser.open(url);
    await page.locator('button.cell').first().waitFor();
    const opened = performance.now() - started;
    const clickStarted = performance.now();
    await page.locator('button.cell').nth(3).click();
    await page.locator('#drawer .trial-body h3', { hasText: 'Changes' }).waitFor();
    const clicked = performance.now() - clickStarted;
    const filterStarted = performance.now();
    await page.selectOption('select[name=tag]', { label: 'odd' });
    await expect.poll(() => page.locator('.filters .note').textContent()).toBe('500 of 1000 cases');
    const filtered = performance.now() - filterStarted;
    process.stderr.write(
      `viewer, 10,000 rows: open ${Math.round(opened)} ms, click ${Math.round(clicked)} ms, filter ${Math.round(filtered)} ms\n`,
    );
    expect(await page.locator('table.grid tbody tr:not(.group)').count()).toBe(500);
    // The excerpts stop at the page's budget: the first failing trials have theirs, later ones say why not.
    const notes = await page.locator('#drawer .note').allTextContents();
    expect(
      notes.some((note) => /^diff not embedded: the page's 16384 KiB|^The page shows the first/.test(note)) ||
        (await page.locator('#drawer .diff').count()) === 1,
    ).toBe(true);
    expect(page.errors).toEqual([]);
  });

  it.runIf(process.env.GZ_BENCH_SCREENSHOT)('writes the README screenshot', async () => {
    const temp = await project();
    const page = await browser.open(await viewPage(temp.dir, await writeSampleReport(temp.dir)));
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.locator('table.grid tbody tr:not(.group)').nth(2).locator('button.cell').nth(1).click();
    await page.locator('#drawer').evaluate((node) => {
      (node as unknown as { scrollTop: number }).scrollTop = 560;
    });
    const path = join(REPO_ROOT, process.env.GZ_BENCH_SCREENSHOT ?? '');
    await mkdir(dirname(path), { recursive: true });
    await page.screenshot({ path });
  });
});
