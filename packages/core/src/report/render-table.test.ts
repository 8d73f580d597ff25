import { describe, expect, it } from 'vitest';
import { buildReport } from './build-report.js';
import { notRunResult } from './not-run.js';
import { renderTable } from './render-table.js';
import { visibleWidth } from './rows.js';
import {
  echoTest,
  fromTwoSuites,
  result,
  sameSuiteTwoFiles,
  timedOut,
  writeHello,
  writeWorld,
} from './test-support/results.js';

/** Strips ANSI colour codes, to compare a coloured table with the plain one. */
function stripAnsi(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ESC starts every ANSI code.
  return text.replace(/\u001b\[\d+m/g, '');
}

describe('renderTable', () => {
  it('renders all passing cases', () => {
    const report = buildReport([writeHello, echoTest]);
    expect(renderTable(report)).toMatchInlineSnapshot(`
      "id           result  checks  time    first failure
      -----------  ------  ------  ------  -------------
      write-hello  PASS    1/1     1204ms
      echo-test    PASS    1/1     203ms

      2 cases: 2 passed, 0 failed
      "
    `);
  });

  it('folds and truncates a long multi-line error to one line of 80 characters', () => {
    const report = buildReport([
      writeHello,
      writeWorld,
      result({
        id: 'fix-tests',
        passed: false,
        durationMs: 12_345,
        failedStep: 'check',
        error:
          'command exited with code 1: npm test\n  FAIL  src/add.test.ts > adds numbers\n  AssertionError: expected 3 to be 4 | got 3\n',
        checkResults: [
          { kind: 'fileContains', path: 'src/add.ts', text: 'export function add', passed: true },
          { kind: 'command', run: 'npm test', passed: false, exitCode: 1 },
          { kind: 'fileNotExists', path: '.env.local', passed: false, skipped: true },
        ],
      }),
    ]);
    const table = renderTable(report);
    expect(table).toMatchInlineSnapshot(`
      "id           result  checks  time    first failure
      -----------  ------  ------  ------  --------------------------------------------------------------------------------
      write-hello  PASS    1/1     1204ms
      write-world  FAIL    0/1     892ms   file does not exist: world.txt
      fix-tests    FAIL    1/3     12.3s   command exited with code 1: npm test FAIL  src/add.test.ts > adds numbers Asser…

      3 cases: 1 passed, 2 failed
      "
    `);
    expect(table.split('\n').every((line) => line === line.trimEnd())).toBe(true);
  });

  it('shows a timed-out case with its skipped checks in the total', () => {
    const report = buildReport([
      timedOut({
        agent: {
          exitCode: null,
          signal: 'SIGTERM',
          timedOut: true,
          durationMs: 120_002,
          outputTail: 'thinking…',
          outputBytes: 11,
          outputDroppedBytes: 0,
        },
        checkResults: [
          { kind: 'fileExists', path: 'hello.txt', passed: false, skipped: true },
          { kind: 'outputMatches', pattern: '^done$', flags: 'm', passed: false, skipped: true },
        ],
      }),
    ]);
    expect(renderTable(report)).toMatchInlineSnapshot(`
      "id          result   checks  time    first failure
      ----------  -------  ------  ------  ----------------------------------
      slow-agent  TIMEOUT  0/2     120.0s  agent command timed out after 120s

      1 case: 0 passed, 1 failed
      "
    `);
  });

  it('names cases `suite > id` when results come from several suites', () => {
    const report = buildReport(fromTwoSuites);
    expect(renderTable(report)).toMatchInlineSnapshot(`
      "id                        result  checks  time    first failure
      ------------------------  ------  ------  ------  -------------
      refactor > rename-symbol  PASS    1/1     45.7s
      smoke > write-hello       PASS    1/1     1204ms

      2 cases: 2 passed, 0 failed
      "
    `);
  });

  it('lists kept workspaces after the summary', () => {
    const report = buildReport([
      { ...writeHello, workspace: '/tmp/gz-bench-write-hello-abc123' },
      { ...writeWorld, workspace: '/tmp/gz-bench-write-world-def456' },
    ]);
    expect(renderTable(report)).toMatchInlineSnapshot(`
      "id           result  checks  time    first failure
      -----------  ------  ------  ------  ------------------------------
      write-hello  PASS    1/1     1204ms
      write-world  FAIL    0/1     892ms   file does not exist: world.txt

      2 cases: 1 passed, 1 failed
      kept workspace write-hello: /tmp/gz-bench-write-hello-abc123
      kept workspace write-world: /tmp/gz-bench-write-world-def456
      "
    `);
  });

  it('says so when no case ran', () => {
    expect(renderTable(buildReport([]))).toBe('no cases ran\n');
  });

  it('colours PASS and FAIL without shifting the columns', () => {
    const report = buildReport([writeHello, writeWorld]);
    const colored = renderTable(report, { color: true });
    expect(
      colored.replaceAll('\u001b[32m', '<green>').replaceAll('\u001b[31m', '<red>').replaceAll('\u001b[39m', '</>'),
    ).toMatchInlineSnapshot(`
        "id           result  checks  time    first failure
        -----------  ------  ------  ------  ------------------------------
        write-hello  <green>PASS</>    1/1     1204ms
        write-world  <red>FAIL</>    0/1     892ms   file does not exist: world.txt

        2 cases: 1 passed, 1 failed
        "
      `);
    expect(stripAnsi(colored)).toBe(renderTable(report));
  });

  it('does not colour by default', () => {
    expect(renderTable(buildReport([writeHello, writeWorld]))).not.toContain('\u001b');
  });

  it('names the file where two suite files share a suite name, so no two rows read alike', () => {
    expect(renderTable(buildReport(sameSuiteTwoFiles))).toMatchInlineSnapshot(`
      "id                                result  checks  time    first failure
      --------------------------------  ------  ------  ------  --------------------------
      bench/one.bench.json > smoke > x  PASS    1/1     1204ms
      bench/one.bench.json > smoke > y  PASS    1/1     1204ms
      bench/two.bench.json > smoke > x  FAIL    0/1     1204ms  file does not exist: x.txt
      bench/two.bench.json > smoke > y  PASS    1/1     1204ms

      4 cases: 3 passed, 1 failed
      "
    `);
  });

  it('names the file only for the suites whose name collides', () => {
    const report = buildReport([...sameSuiteTwoFiles, result({ id: 'z', suite: 'other', file: 'bench/other.json' })]);
    const labels = renderTable(report)
      .split('\n')
      .slice(2, 7)
      .map((line) => line.split('  ')[0]);
    expect(labels).toEqual([
      'bench/one.bench.json > smoke > x',
      'bench/one.bench.json > smoke > y',
      'other > z',
      'bench/two.bench.json > smoke > x',
      'bench/two.bench.json > smoke > y',
    ]);
  });

  it('shows cases that did not run as NOT RUN, with why, and lists their file under the summary', () => {
    const planned = {
      suite: 'demo',
      file: 'bench/demo.bench.json',
      checks: [{ kind: 'fileExists' as const, path: 'a' }],
    };
    const report = buildReport([
      writeHello,
      notRunResult({ ...planned, id: 'killed' }, 'Vitest reported "Worker exited unexpectedly"'),
      notRunResult({ ...planned, id: 'never-started' }, 'Vitest reported "Worker exited unexpectedly"'),
    ]);
    expect(renderTable(report)).toMatchInlineSnapshot(`
      "id             result   checks  time    first failure
      -------------  -------  ------  ------  ---------------------------------------------------------------------
      write-hello    PASS     1/1     1204ms
      killed         NOT RUN  0/1     -       the case did not finish: Vitest reported "Worker exited unexpectedly"
      never-started  NOT RUN  0/1     -       the case did not finish: Vitest reported "Worker exited unexpectedly"

      3 cases: 1 passed, 2 failed (2 not run)
      error: bench/demo.bench.json: 2 of 3 cases did not finish: Vitest reported "Worker exited unexpectedly"
      "
    `);
  });

  describe('wide and combining characters', () => {
    // Each id takes the same number of code points as `write-hello` would not: what lines up is columns.
    const ids = ['写入文件', '😀-emoji', 'cafe\u0301-combining', 'ascii-only', '한국어-케이스', '👩‍💻-zwj'];
    const report = buildReport(
      ids.map((id, index) =>
        result({
          id,
          passed: index % 2 === 0,
          error: index % 2 === 0 ? undefined : `失败：文件不存在 ${id}`,
        }),
      ),
    );
    const table = renderTable(report);

    it('aligns every column by display width', () => {
      expect(table).toMatchInlineSnapshot(`
        "id              result  checks  time    first failure
        --------------  ------  ------  ------  ---------------------------
        写入文件        PASS    1/1     1204ms
        😀-emoji        FAIL    1/1     1204ms  失败：文件不存在 😀-emoji
        café-combining  PASS    1/1     1204ms
        ascii-only      FAIL    1/1     1204ms  失败：文件不存在 ascii-only
        한국어-케이스   PASS    1/1     1204ms
        👩‍💻-zwj          FAIL    1/1     1204ms  失败：文件不存在 👩‍💻-zwj

        6 cases: 3 passed, 3 failed
        "
      `);
      const [header = '', rule = '', ...rows] = table.split('\n').slice(0, 2 + ids.length);
      // The result column starts at the same terminal column on every line, right after the rule's first dashes.
      const resultColumn = (line: string) => visibleWidth(line.slice(0, line.search(/PASS|FAIL|result/)));
      expect(new Set([header, ...rows].map(resultColumn))).toEqual(new Set([(rule.split(' ')[0]?.length ?? 0) + 2]));
    });

    it('cuts a long failure between graphemes, within 80 columns', () => {
      const long = buildReport([result({ id: 'a', passed: false, error: `${'字'.repeat(50)}e\u0301` })]);
      const cell =
        renderTable(long)
          .split('\n')[2]
          ?.split(/FAIL\s+\S+\s+\S+\s+/)[1] ?? '';
      expect(visibleWidth(cell)).toBeLessThanOrEqual(80);
      expect(cell).toBe(`${'字'.repeat(39)}…`);
    });
  });
});
