import { createHash } from 'node:crypto';
import { describe, it } from 'vitest';
import { PAGE_SCRIPT } from './page-script.js';
import { PAGE_STYLE } from './page-style.js';
import { renderComparisonHtml, renderViewHtml } from './render-view.js';
import { buildViewData } from './view-model.js';

const HOSTILE = '</script><script>alert(1)</script>"><img src=x onerror=alert(1)><!-- \u2028 \ud800';

function dataOf(html: string, id: string): unknown {
  const match = new RegExp(`<script type="application/json" id="${id}">(.*?)</script>`, 's').exec(html);
  return JSON.parse(match?.[1] ?? 'null');
}

describe('renderViewHtml', () => {
  const hostileReport = {
    summary: { total: 1, passed: 0, failed: 1 },
    results: [
      {
        id: HOSTILE,
        suite: HOSTILE,
        file: HOSTILE,
        passed: false,
        outcome: 'failed',
        durationMs: 5,
        error: HOSTILE,
        agentName: HOSTILE,
        tags: [HOSTILE],
        checkResults: [{ kind: HOSTILE, passed: false, message: HOSTILE, [HOSTILE]: HOSTILE }],
        agent: {
          exitCode: 1,
          signal: null,
          timedOut: false,
          durationMs: 1,
          outputTail: HOSTILE,
          log: 'javascript:alert(1)',
        },
        changes: {
          added: 1,
          modified: 0,
          deleted: 0,
          linesAdded: 1,
          linesRemoved: 0,
          files: [{ path: HOSTILE, status: 'added' }],
          diffBytes: 1,
        },
      },
    ],
    errors: [{ file: HOSTILE, message: HOSTILE }],
  };

  it('puts no string of the report into the markup: three scripts, no tag or comment of its own', ({ expect }) => {
    const html = renderViewHtml(hostileReport, { linkFor: (path) => `x/${encodeURIComponent(path)}` });
    expect(html.match(/<script/g)).toHaveLength(3);
    expect(html.match(/<\/script>/g)).toHaveLength(3);
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<!--');
    expect(html).not.toMatch(/[\u2028\ud800]/);
    const data = dataOf(html, 'gz-data') as { cases: string[][]; agents: string[] };
    expect(data.cases[0]).toEqual([HOSTILE.replace('\ud800', '\ud800'), HOSTILE, HOSTILE]);
    expect(data.agents).toEqual([HOSTILE]);
  });

  it('lets only its own script run, by the hash in its Content-Security-Policy', ({ expect }) => {
    const html = renderViewHtml({ summary: { total: 0 }, results: [] });
    const hash = createHash('sha256').update(PAGE_SCRIPT).digest('base64');
    expect(html).toContain(`script-src 'sha256-${hash}'`);
    expect(html).toContain("default-src 'none'");
    expect(html).toContain(`<script>${PAGE_SCRIPT}</script>`);
  });

  it('has a script and style that cannot end their own elements', ({ expect }) => {
    expect(PAGE_SCRIPT).not.toMatch(/<\/script|<!--|`|\$\{/i);
    expect(PAGE_STYLE).not.toMatch(/<\/style|<!--/i);
    expect(PAGE_SCRIPT).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function/);
  });
});

describe('buildViewData', () => {
  it('reads an old report without outcome, agents or scoreboard as one column', ({ expect }) => {
    const { data, details } = buildViewData(
      {
        summary: { total: 3, passed: 1, failed: 2 },
        results: [
          { id: 'a', suite: 's', file: 'f', passed: true, durationMs: 1, checkResults: [] },
          { id: 'b', suite: 's', file: 'f', passed: false, durationMs: 2, checkResults: [], failedStep: 'setup' },
          {
            id: 'c',
            suite: 's',
            file: 'f',
            passed: false,
            durationMs: 3,
            checkResults: 'bad',
            agent: { timedOut: true },
          },
        ],
      },
      new Map(),
      () => undefined,
    );
    expect(data.agents).toEqual(['']);
    expect(data.rows.map((row) => data.outcomes[row[3]])).toEqual(['passed', 'harnessError', 'timedOut']);
    expect(data.scoreboard).toBeUndefined();
    expect(details[2]).toMatchObject({ outcome: 'timedOut', agent: { timedOut: true, exitCode: null } });
  });

  it('takes an empty or shapeless report', ({ expect }) => {
    expect(buildViewData({}, new Map(), () => undefined).data).toMatchObject({ rows: [], cases: [], agents: [''] });
    expect(buildViewData(null, new Map(), () => undefined).data.summary).toEqual({ total: 0, passed: 0, failed: 0 });
  });

  it('maps the scoreboard cells onto its cases and agents', ({ expect }) => {
    const row = (agentName: string, passed: boolean) => ({
      id: 'x',
      suite: 's',
      file: 'f',
      agentName,
      passed,
      checkResults: [],
    });
    const { data } = buildViewData(
      {
        summary: { total: 2 },
        results: [row('b', false), row('a', true)],
        scoreboard: {
          rule: 'majority',
          agents: [{ name: 'a' }],
          cells: [
            { file: 'f', suite: 's', id: 'x', agent: 'a', passed: true },
            { file: 'f', suite: 's', id: 'x', agent: 'b', passed: false },
            { file: 'f', suite: 's', id: 'gone', agent: 'a', passed: true },
          ],
        },
      },
      new Map(),
      () => undefined,
    );
    expect(data.agents).toEqual(['b', 'a']);
    expect((data.scoreboard as { cells: unknown }).cells).toEqual([
      [0, 1, 1],
      [0, 0, 0],
    ]);
  });
});

describe('renderComparisonHtml', () => {
  it('embeds the comparison for the same script to draw', ({ expect }) => {
    const comparison = {
      verdict: 'regression',
      reason: HOSTILE,
      cells: [],
      newCells: [],
      removedCells: [],
      agents: [],
    };
    const html = renderComparisonHtml(comparison as never);
    expect(html).not.toContain('<img');
    expect(dataOf(html, 'gz-data')).toMatchObject({ kind: 'compare', comparison: { reason: HOSTILE } });
  });
});
