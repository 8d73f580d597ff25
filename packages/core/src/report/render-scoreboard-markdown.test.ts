import { describe, expect, it } from 'vitest';
import { renderScoreboardMarkdown } from './render-scoreboard-markdown.js';
import { buildScoreboard } from './scoreboard.js';
import { twoAgents } from './test-support/scoreboard-rows.js';
import { trial } from './test-support/trials.js';

describe('renderScoreboardMarkdown', () => {
  it('renders a heading, the verdict, the agents, the grid and the legend', () => {
    expect(renderScoreboardMarkdown(buildScoreboard(twoAgents))).toMatchInlineSnapshot(`
      "## gz-bench scoreboard

      2 agents × 3 cases, 3 trials per cell.

      **Within noise**: opus 78% vs haiku 22%, p = 0.25 on 3 paired cases.

      | agent | score | 95% interval | cells | median | tokens in/out | cached | cost | failed | errors | model |
      | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- | --- |
      | opus | 78% | 45–94% | 3/3 | 3000ms | 108.0k/7200 | 36.0k | $0.4500 (est.) | 1 | 1 agent error | claude-opus-4-1, claude-sonnet-4-5 |
      | haiku | 22% | 6–55% | 0/3 | 2000ms | - | - | - | 6 (1 timed out) | 1 harness error | - |

      ### Cases

      | case | opus | haiku |
      | --- | --- | --- |
      | write-hello | 3/3 · 1100ms | 1/3\\~ · 700ms |
      | fix-bug | 2/3\\~ · 4000ms | 0/3 · 2500ms |
      | rename | 2/3\\~! · 20.0s | 1/3\\~! · 9000ms |

      Each cell: passes/trials · median time. A cell passes when more than half of its trials pass. \`~\` flaky: some trials passed, some did not. \`!\` a trial ended in an error, not an answer. (est.) the agent's own estimate of its cost.
      "
    `);
  });

  it('bolds the leader when the lead is significant', () => {
    const rows = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6'].flatMap((id) => [
      trial('claude-opus', id, 1, 'passed', 1500),
      trial('claude-haiku', id, 1, 'failed', 900),
    ]);
    expect(renderScoreboardMarkdown(buildScoreboard(rows))).toContain(
      '\n**claude-opus leads claude-haiku**: 100% vs 0%, p = 0.031 on 6 paired cases.\n',
    );
  });

  it('escapes pipes, backticks and markup in case ids and agent names', () => {
    const rows = [trial('a|b `x`', 'case|`one`', 1, 'passed', 100), trial('*bold*', 'case|`one`', 1, 'failed', 100)];
    expect(renderScoreboardMarkdown(buildScoreboard(rows))).toMatchInlineSnapshot(`
      "## gz-bench scoreboard

      2 agents × 1 case, 1 trial per cell.

      **Within noise**: a\\|b \\\`x\\\` 100% vs \\*bold\\* 0%, p = 1 on 1 paired case.

      | agent | score | 95% interval | cells | median | tokens in/out | cached | cost | failed | errors | model |
      | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- | --- |
      | a\\|b \\\`x\\\` | 100% | 21–100% | 1/1 | 100ms | - | - | - | 0 | 0 | - |
      | \\*bold\\* | 0% | 0–79% | 0/1 | 100ms | - | - | - | 1 | 0 | - |

      ### Cases

      | case | a\\|b \\\`x\\\` | \\*bold\\* |
      | --- | --- | --- |
      | case\\|\\\`one\\\` | 1/1 · 100ms | 0/1 · 100ms |

      Each cell: passes/trials · median time. A cell passes when more than half of its trials pass. \`~\` flaky: some trials passed, some did not. \`!\` a trial ended in an error, not an answer.
      "
    `);
  });

  it('says how many agents, cases and trials it holds', () => {
    const rows = [trial('a', 'x', 1, 'passed', 10), trial('a', 'x', 2, 'passed', 10), trial('a', 'y', 1, 'failed', 10)];
    expect(renderScoreboardMarkdown(buildScoreboard(rows))).toContain(
      '\n1 agent × 2 cases, up to 2 trials per cell.\n',
    );
  });

  it('says so when no case ran', () => {
    expect(renderScoreboardMarkdown(buildScoreboard([]))).toBe('no cases ran\n');
  });
});
