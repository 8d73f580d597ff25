import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { cellTexts, markdownHtml, markupProblems } from '../packages/core/src/report/test-support/inert-markdown.js';
import { cleanupAfterAll } from './support/cleanup.js';
import { pluginProjectFiles, SCRIPTED_CMD } from './support/plugin-project.js';
import { runVitest } from './support/run.js';

// The Markdown a run writes (the scoreboard file and the GitHub job summary), with a case id and an
// agent name that try to break out, as GitHub would render it.

const cleanup = cleanupAfterAll();
const CASE_ID = '<img src=x onerror=alert(1)>|![p](http://evil.example/p.png)';
const AGENT = '[x](javascript:alert(2))</details>';

describe('the Markdown of a run', () => {
  it('keeps hostile case ids and agent names inert in scoreboard.md and $GITHUB_STEP_SUMMARY', async ({ expect }) => {
    const p = await cleanup.project({
      ...pluginProjectFiles({ agents: { [AGENT]: SCRIPTED_CMD, plain: SCRIPTED_CMD } }),
      'bench/a.bench.json': {
        name: 'alpha',
        cases: [
          { id: CASE_ID, prompt: "Reply with 'hi'.", checks: [{ kind: 'outputMatches', pattern: '^hi$', flags: 'm' }] },
        ],
      },
    });
    const run = await runVitest(['run'], { cwd: p.dir, env: { GITHUB_STEP_SUMMARY: join(p.dir, 'summary.md') } });
    expect(run.exitCode, `${String(run.stdout)}\n${String(run.stderr)}`).toBe(0);
    for (const file of ['.gz-bench/scoreboard.md', 'summary.md']) {
      const html = markdownHtml(await readFile(join(p.dir, file), 'utf8'));
      expect(markupProblems(html), file).toEqual([]);
      const cells = cellTexts(html);
      expect(cells.filter((cell) => cell.includes(CASE_ID)).length, file).toBeGreaterThan(0);
      expect(cells.filter((cell) => cell.includes(AGENT)).length, file).toBeGreaterThan(0);
    }
  });
});
