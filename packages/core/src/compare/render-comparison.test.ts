import { describe, expect, it } from 'vitest';
import { buildComparison } from './build-comparison.js';
import { renderComparison } from './render-comparison.js';
import { MARKDOWN_MAX_ROWS, renderComparisonMarkdown } from './render-comparison-markdown.js';
import { cell, loaded } from './test-support/reports.js';

const usage = { inputTokens: 1200, outputTokens: 300, costUsd: 0.012, costSource: 'agent' } as const;

/** Two agents: claude truly regresses on fix-bug and drops within noise on write|docs; codex flips back by chance. */
const comparison = buildComparison(
  loaded('base.json', [
    ...cell('claude', 'fix-bug', 3, 3, { usage }),
    ...cell('claude', 'write|docs', 3, 3),
    ...cell('claude', 'gone', 1, 1),
    ...cell('codex', 'fix-bug', 1, 3, { failWith: 'agentError' }),
  ]),
  loaded('head.json', [
    ...cell('claude', 'fix-bug', 0, 3, { usage: { ...usage, inputTokens: 2000 }, durationMs: 1500 }),
    ...cell('claude', 'write|docs', 2, 3),
    ...cell('claude', 'new', 1, 1),
    ...cell('codex', 'fix-bug', 3, 3),
    ...cell('codex', 'later', 0, 1, { failWith: 'notRun' }),
  ]),
);

describe('renderComparison', () => {
  it('shows flips first, then new and removed cells, errors, deltas and the verdicts', () => {
    expect(renderComparison(comparison)).toMatchInlineSnapshot(`
      "gz-bench compare: base.json (8/10 trials passed) → head.json (6/10 trials passed, 1 not run)
      A cell passes when more than half of its trials pass.

      Changed cells:
        case        agent   base  head  flip         change        p
        ----------  ------  ----  ----  -----------  ------------  -----
        fix-bug     claude  3/3   0/3   pass → fail  regression    0.025
        fix-bug     codex   1/3   3/3   fail → pass  within noise  0.1
        write|docs  claude  3/3   2/3                within noise  0.25

      New and removed cells:
        case   agent   only in         trials
        -----  ------  --------------  -------
        new    claude  head (new)      1/1
        later  codex   head (new)      not run
        gone   claude  base (removed)  1/1

      Errors:
        trials        base  head  change
        ------------  ----  ----  ------
        agent errors  2     0     -2
        not run       0     1     +1

      Duration, tokens and cost:
        agents  duration                         tokens in                  tokens out         cost (est.)
        ------  -------------------------------  -------------------------  -----------------  -------------------------------
        all     10.0s → 11.5s (+1500ms, +15%)    3600 → 6000 (+2400, +67%)  900 → 900 (0, 0%)  $0.0360 → $0.0360 ($0.0000, 0%)
        claude  7000ms → 8500ms (+1500ms, +21%)  3600 → 6000 (+2400, +67%)  900 → 900 (0, 0%)  $0.0360 → $0.0360 ($0.0000, 0%)
        codex   3000ms → 3000ms (0ms, 0%)        -                          -                  -
      Sums over every trial that ran, new and removed cells included. Costs are the agents’ own estimates, not a bill.

      claude: regression: fix-bug (claude) 3/3 → 0/3, p = 0.025; 1 case changed within noise (write|docs (claude) 3/3 → 2/3, p = 0.25) [paired test over 2 cases: pass rate -66.7 points, p = 0.5]
      codex: within noise: 1 case changed, none significantly (fix-bug (codex) 1/3 → 3/3, p = 0.1) [paired test over 1 case: pass rate +66.7 points, p = 1]
      Verdict: regression: claude; within noise: codex
      "
    `);
  });

  it('colours the overall verdict only when asked', () => {
    expect(renderComparison(comparison, { color: true })).toContain('\u001b[31mVerdict: regression');
    expect(renderComparison(comparison)).not.toContain('\u001b[');
  });

  it('says when the reports share no cell', () => {
    const text = renderComparison(
      buildComparison(loaded('a.json', cell('x', 'a', 1, 1)), loaded('b.json', cell('x', 'b', 1, 1))),
    );
    expect(text).toContain('No cell is in both reports.');
    expect(text).toContain('Verdict: within noise: no case ran in both reports');
  });
});

describe('renderComparisonMarkdown', () => {
  it('renders a pull-request comment whose names cannot end a cell or become markup', () => {
    const markdown = renderComparisonMarkdown(comparison);
    expect(markdown).toMatchInlineSnapshot(`
      "## gz-bench compare

      🔴 **Regression**

      base.json (8/10 trials passed) → head.json (6/10 trials passed, 1 not run)

      - 🔴 **claude**: regression: fix-bug (claude) 3/3 → 0/3, p = 0.025; 1 case changed within noise (write\\|docs (claude) 3/3 → 2/3, p = 0.25) (paired test over 2 cases: pass rate -66.7 points, p = 0.5)
      - ⚪ **codex**: within noise: 1 case changed, none significantly (fix-bug (codex) 1/3 → 3/3, p = 0.1) (paired test over 1 case: pass rate +66.7 points, p = 1)

      ### Changed cells

      | case | agent | base | head | flip | change | p |
      | --- | --- | --- | --- | --- | --- | --- |
      | fix-bug | claude | 3/3 | 0/3 | pass → fail | regression | 0.025 |
      | fix-bug | codex | 1/3 | 3/3 | fail → pass | within noise | 0.1 |
      | write\\|docs | claude | 3/3 | 2/3 |  | within noise | 0.25 |

      ### New and removed cells

      | case | agent | only in | trials |
      | --- | --- | --- | --- |
      | new | claude | head (new) | 1/1 |
      | later | codex | head (new) | not run |
      | gone | claude | base (removed) | 1/1 |

      ### Errors

      | trials | base | head | change |
      | --- | --- | --- | --- |
      | agent errors | 2 | 0 | -2 |
      | not run | 0 | 1 | +1 |

      ### Duration, tokens and cost

      | agents | duration | tokens in | tokens out | cost (est.) |
      | --- | --- | --- | --- | --- |
      | all | 10.0s → 11.5s (+1500ms, +15%) | 3600 → 6000 (+2400, +67%) | 900 → 900 (0, 0%) | $0.0360 → $0.0360 ($0.0000, 0%) |
      | claude | 7000ms → 8500ms (+1500ms, +21%) | 3600 → 6000 (+2400, +67%) | 900 → 900 (0, 0%) | $0.0360 → $0.0360 ($0.0000, 0%) |
      | codex | 3000ms → 3000ms (0ms, 0%) | - | - | - |

      Sums over every trial that ran, new and removed cells included. Costs are the agents’ own estimates, not a bill.

      A cell passes when more than half of its trials pass.
      "
    `);
    // Every table row has exactly its columns' pipes: the escaped one in write|docs does not count.
    for (const line of markdown.split('\n').filter((text) => text.startsWith('| write'))) {
      expect(line.replaceAll('\\|', '').split('|')).toHaveLength(9);
    }
  });

  it('escapes markup in ids and agent names', () => {
    const markdown = renderComparisonMarkdown(
      buildComparison(
        loaded('a.json', cell('<img src=x>', '*bold*_[link](http://x)`', 1, 1)),
        loaded('b.json', cell('<img src=x>', '*bold*_[link](http://x)`', 0, 1)),
      ),
    );
    expect(markdown).toContain('\\*bold\\*\\_\\[link\\](http\\://x)\\`');
    expect(markdown).toContain('\\<img src=x\\>');
    expect(markdown).not.toMatch(/(?<!\\)<img/);
  });

  it(`cuts a table at ${MARKDOWN_MAX_ROWS} rows and says where the rest is`, () => {
    const ids = Array.from({ length: MARKDOWN_MAX_ROWS + 5 }, (_, index) => `case-${index}`);
    const markdown = renderComparisonMarkdown(
      buildComparison(
        loaded(
          'a.json',
          ids.flatMap((id) => cell('claude', id, 1, 1)),
        ),
        loaded(
          'b.json',
          ids.flatMap((id) => cell('claude', id, 0, 1)),
        ),
      ),
    );
    expect(markdown.split('\n').filter((line) => line.startsWith('| case-'))).toHaveLength(MARKDOWN_MAX_ROWS);
    expect(markdown).toContain('…and 5 more rows: `gz-bench compare --json` has them all.');
  });
});
