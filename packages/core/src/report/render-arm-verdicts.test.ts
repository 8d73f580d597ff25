import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ReportResult } from './model.js';
import { renderScoreboard } from './render-scoreboard.js';
import { renderScoreboardMarkdown } from './render-scoreboard-markdown.js';
import { buildScoreboard } from './scoreboard.js';
import { trial } from './test-support/trials.js';

/** Claude Code with and without the skill on one case, three trials each: 3/3 against 0/3. */
function armRows(): ReportResult[] {
  const usage = (inputTokens: number, costUsd: number) => ({ inputTokens, outputTokens: 0, costUsd, turns: 2 });
  return [1, 2, 3].flatMap((n) => [
    {
      ...trial('claude-code', 'fill', n, 'passed', 2000, usage(1000, 0.01)),
      arm: 'v1',
      skills: [{ name: 'pdf', advertised: true, used: n < 3 }],
    },
    { ...trial('claude-code', 'fill', n, 'failed', 1000, usage(1500, 0.02)), arm: 'none' },
  ]);
}

describe('the scoreboard of a run with arms', () => {
  it('has a column per (agent, arm), and says the arm helps, with its interval, trigger rate and deltas', () => {
    const board = buildScoreboard(armRows());
    expect(board.agents.map((agent) => agent.name)).toEqual(['claude-code/v1', 'claude-code/none']);
    const text = renderScoreboard(board);
    const arms = text.slice(text.indexOf('skill arms'), text.indexOf('a cell passes'));
    // 3/3 against 0/3 on one case: +100 points, 95% interval [0.21, 1] (stats/paired-difference.test.ts).
    expect(arms).toMatchInlineSnapshot(`
      "skill arms
      agent        arm  pass  baseline   difference (95% interval)  verdict  skill used  Δ tokens  Δ cost    Δ turns  Δ time
      -----------  ---  ----  ---------  -------------------------  -------  ----------  --------  --------  -------  ------
      claude-code  v1   100%  0% (none)  +100 pts (+21 to +100)     helps    2/3 (67%)   −500      −$0.0100  ±0       +1.0s
      helps / hurts: the 95% interval of the pass-rate difference, paired by case over the cases both arms ran, lies above / below 0; no evidence otherwise. Δ: mean per trial, arm minus baseline.

      "
    `);
  });

  it('is the example of the README', () => {
    const readme = readFileSync(new URL('../../../../README.md', import.meta.url), 'utf8');
    const text = renderScoreboard(buildScoreboard(armRows()));
    const table = text.slice(text.indexOf('skill arms'), text.indexOf('helps / hurts')).trimEnd();
    // Indented as a block of its list item.
    const block = ['```', ...table.split('\n'), '```'].map((line) => `  ${line}`).join('\n');
    expect(readme).toContain(block);
  });

  it('puts the same verdict in the Markdown scoreboard, its names escaped', () => {
    const rows = armRows().map((row) => ({ ...row, agentName: 'claude|code' }));
    const markdown = renderScoreboardMarkdown(buildScoreboard(rows));
    expect(markdown).toContain('### Skill arms');
    expect(markdown).toContain(
      '| claude\\|code | v1 | 100% | 0% (none) | +100 pts (+21 to +100) | helps | 2/3 (67%) |',
    );
  });
});
