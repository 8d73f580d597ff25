import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderScoreboard } from './render-scoreboard.js';
import { visibleWidth } from './rows.js';
import { buildScoreboard } from './scoreboard.js';
import { twoAgents } from './test-support/scoreboard-rows.js';
import { trial } from './test-support/trials.js';

/** Strips ANSI colour codes, to compare a coloured scoreboard with the plain one. */
function stripAnsi(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ESC starts every ANSI code.
  return text.replace(/\u001b\[\d+m/g, '');
}

/** Six cases that `a` passes and `b` fails, one trial each: a significant lead (p = 2/2^6). */
const clearLead = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6'].flatMap((id) => [
  trial('a', id, 1, 'passed', 1500),
  trial('b', id, 1, 'failed', 900),
]);

describe('renderScoreboard', () => {
  it('renders the grid, the agents, the verdict and the legend', () => {
    expect(renderScoreboard(buildScoreboard(twoAgents))).toMatchInlineSnapshot(`
      "case         opus          haiku
      -----------  ------------  ------------
      write-hello  3/3   1100ms  1/3~  700ms
      fix-bug      2/3~  4000ms  0/3   2500ms
      rename       2/3~! 20.0s   1/3~! 9000ms

      agent  score  95% interval  cells  median  tokens in/out  cached  cost            failed           errors           model
      -----  -----  ------------  -----  ------  -------------  ------  --------------  ---------------  ---------------  ----------------------------------
      opus   78%    45–94%        3/3    3000ms  108.0k/7200    36.0k   $0.4500 (est.)  1                1 agent error    claude-opus-4-1, claude-sonnet-4-5
      haiku  22%    6–55%         0/3    2000ms  -              -       -               6 (1 timed out)  1 harness error  -

      within noise: opus 78% vs haiku 22%, p = 0.25 on 3 paired cases
      a cell passes when more than half of its trials pass
      ~ flaky: some trials passed, some did not; ! a trial ended in an error, not an answer
      (est.) the agent's own estimate of its cost
      "
    `);
  });

  it('is the example of the README', () => {
    const readme = readFileSync(new URL('../../../../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('### Scoreboard statistics'));
    const example = /```\n([^`]*?)```/.exec(section)?.[1];
    expect(example).toBe(renderScoreboard(buildScoreboard(twoAgents)));
  });

  it('names the leader when the lead is significant', () => {
    const text = renderScoreboard(buildScoreboard(clearLead));
    expect(text).toContain('\na leads b: 100% vs 0%, p = 0.031 on 6 paired cases\n');
    expect(text).not.toContain('within noise');
  });

  it('shows a case an agent did not run as -, and no verdict for one agent', () => {
    const rows = [trial(undefined, 'x', 1, 'passed', 100), trial(undefined, 'y', 1, 'notRun', 0)];
    expect(renderScoreboard(buildScoreboard(rows))).toMatchInlineSnapshot(`
      "case  agent
      ----  ----------
      x     1/1  100ms
      y     0/1! -

      agent  score  95% interval  cells  median  tokens in/out  cached  cost  failed  errors
      -----  -----  ------------  -----  ------  -------------  ------  ----  ------  ---------
      agent  50%    5–95%         1/2    100ms   -              -       -     0       1 not run

      a cell passes when more than half of its trials pass
      ~ flaky: some trials passed, some did not; ! a trial ended in an error, not an answer
      "
    `);
    const partial = renderScoreboard(buildScoreboard([...clearLead, trial('a', 'only-a', 1, 'passed', 10)]));
    expect(partial).toMatch(/^only-a +1\/1 +10ms +-$/m);
  });

  it('keeps columns aligned for wide characters and folds names onto one line', () => {
    const rows = [
      trial('エージェント', '写入文件', 1, 'passed', 100),
      trial('line\nbreak', '写入文件', 1, 'failed', 100),
      trial('エージェント', 'emoji-🚀', 1, 'failed', 100),
      trial('line\nbreak', 'emoji-🚀', 1, 'passed', 100),
    ];
    const text = renderScoreboard(buildScoreboard(rows));
    expect(text).not.toContain('line\nbreak');
    const grid = text.split('\n').slice(0, 4);
    expect(grid[0]).toBe('case      エージェント  line break');
    // Each agent's column starts at the same display column on every line of the grid.
    const startOf = (line: string, cell: string) => visibleWidth(line.slice(0, line.indexOf(cell)));
    expect(startOf(grid[2] ?? '', '1/1')).toBe(startOf(grid[0] ?? '', 'エージェント'));
    expect(startOf(grid[3] ?? '', '0/1')).toBe(startOf(grid[0] ?? '', 'エージェント'));
    expect(startOf(grid[2] ?? '', '0/1')).toBe(startOf(grid[0] ?? '', 'line break'));
  });

  it('colours passing cells green and failing ones red without moving anything', () => {
    const plain = renderScoreboard(buildScoreboard(twoAgents));
    const coloured = renderScoreboard(buildScoreboard(twoAgents), { color: true });
    expect(coloured).toContain('\u001b[32m3/3\u001b[39m');
    expect(coloured).toContain('\u001b[31m1/3~\u001b[39m');
    expect(stripAnsi(coloured)).toBe(plain);
  });

  it('says so when no case ran', () => {
    expect(renderScoreboard(buildScoreboard([]))).toBe('no cases ran\n');
  });
});
