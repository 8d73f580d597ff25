import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect as expectOutside, it } from 'vitest';
import { cleanupAfterAll } from '../support/cleanup.js';
import { pluginProjectFiles } from '../support/plugin-project.js';
import { runVitest } from '../support/run.js';
import { ASKS_CASE, SKILL_READER_CMD, skillSuiteFiles } from '../support/skill-suite.js';
import { type Browser, noBrowser, startBrowser } from './support/browser.js';

// The page of a run with skill arms, in Chromium: a column per (agent, arm), the arms' verdict
// panel, and a trial's skills (advertised, used, at which step, how).

const { project } = cleanupAfterAll();
describe.skipIf(noBrowser)(`a run with skill arms in the viewer${noBrowser ? ` (skipped: ${noBrowser})` : ''}`, () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await startBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    expectOutside(browser?.blocked ?? []).toEqual([]);
  });

  it('shows each arm as a column, says the arm helps, and lists a trial’s skills', async ({ expect }) => {
    const temp = await project({
      ...skillSuiteFiles([ASKS_CASE]),
      ...pluginProjectFiles({
        trials: 3,
        html: 'out/run.html',
        agents: {
          reader: { cmd: SKILL_READER_CMD, trajectory: 'claude-code', skillDirs: { project: '.claude/skills' } },
        },
      }),
    });
    const result = await runVitest(['run', 'bench/'], { cwd: temp.dir });
    expect(result.exitCode, String(result.stderr)).toBe(1);
    const page = await browser.open(pathToFileURL(`${temp.dir}/out/run.html`).href);
    expect(await page.locator('table.grid th').allTextContents()).toEqual(['case', 'reader/none', 'reader/v1']);
    const arms = page.locator('section.panel', { hasText: 'Skill arms' });
    expect(await arms.locator('tbody tr').allTextContents()).toEqual([
      expect.stringMatching(/^readerv1100%0% \(none\)\+100 pts \(\+\d+ to \+100\)helps3\/3 \(100%\)/),
    ]);
    await page.locator('table.grid tbody tr:not(.group)').first().locator('button.cell').nth(1).click();
    const drawer = page.locator('#drawer');
    await drawer.waitFor({ state: 'visible' });
    const skills = drawer.locator('table', { has: page.locator('th', { hasText: 'advertised' }) });
    expect(await skills.locator('tbody tr').first().locator('td').allTextContents()).toEqual([
      'answers',
      'yes',
      'yes',
      '2',
      'tool Skill',
      '-',
    ]);
    await page.screenshot({ path: `${temp.dir}/skill-arms.png`, fullPage: true });
    expect(page.errors).toEqual([]);
  });
});
