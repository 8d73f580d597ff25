import type { Report } from '@gz-bench/core';
import type { Result } from 'execa';
import { describe, it } from 'vitest';
import { cleanupAfterAll } from './support/cleanup.js';
import { pluginProjectFiles } from './support/plugin-project.js';
import { readReport, resultOf } from './support/report.js';
import { runCli, runVitest } from './support/run.js';

// Case tags become Vitest test tags that the plugin defines itself, so `--tags-filter` selects cases
// without the user declaring any tag; tags and `meta` reach every report row.

const cleanup = cleanupAfterAll();
const REPORT = 'out/report.json';

/** Three cases: python, python+hard, and one with only the suite's tag. */
const TAGGED_SUITE = {
  name: 'tagged',
  tags: ['bench'],
  meta: { source: 'ported', difficulty: 'medium' },
  cases: [
    { id: 'easy-py', prompt: 'p', tags: ['python'], meta: { difficulty: 'easy' }, checks: [] },
    { id: 'hard-py', prompt: 'p', tags: ['python', 'hard'], checks: [] },
    { id: 'plain', prompt: 'p', checks: [] },
  ],
};

function output(result: Result): string {
  return `exit ${result.exitCode}\n--- stdout\n${String(result.stdout)}\n--- stderr\n${String(result.stderr)}`;
}

describe('tags through the plugin', () => {
  it("--tags-filter='python && !hard' runs only the matching case, with no tag declared in the config", async ({
    expect,
  }) => {
    const temp = await cleanup.project({
      ...pluginProjectFiles({ cmd: 'true', report: REPORT, table: false }),
      'tagged.bench.json': TAGGED_SUITE,
    });
    const result = await runVitest(['run', '--tags-filter=python && !hard'], { cwd: temp.dir });
    expect(result.exitCode, output(result)).toBe(0);
    const report = await readReport(temp.dir, REPORT);
    expect(report.results.map((row) => row.id)).toEqual(['easy-py']);
    const row = resultOf(report, 'easy-py');
    expect(row.tags).toEqual(['bench', 'python']);
    // The case's keys win over the suite's, key by key.
    expect(row.meta).toEqual({ source: 'ported', difficulty: 'easy' });
    // Report keys in their documented order: tags and meta after the cell's labels.
    const keys = Object.keys(row);
    expect(keys.indexOf('tags')).toBeGreaterThan(keys.indexOf('outcome'));
    expect(keys.indexOf('meta')).toBe(keys.indexOf('tags') + 1);
  });

  it("lists the suites' tags with --list-tags, and filters each agent's describe block", async ({ expect }) => {
    const temp = await cleanup.project({
      ...pluginProjectFiles({
        agents: { one: 'true', two: 'true' },
        report: REPORT,
        table: false,
      }),
      'tagged.bench.json': TAGGED_SUITE,
    });
    const listed = await runVitest(['--list-tags'], { cwd: temp.dir });
    expect(listed.exitCode, output(listed)).toBe(0);
    for (const tag of ['bench', 'python', 'hard']) expect(String(listed.stdout)).toContain(`${tag}: gz-bench case tag`);

    const result = await runVitest(['run', '--tags-filter', 'hard'], { cwd: temp.dir });
    expect(result.exitCode, output(result)).toBe(0);
    const report = await readReport(temp.dir, REPORT);
    expect(report.results.map((row) => [row.agentName, row.id])).toEqual([
      ['one', 'hard-py'],
      ['two', 'hard-py'],
    ]);
    expect(report.results.every((row) => row.tags?.join() === 'bench,python,hard')).toBe(true);
  });

  it('rows of untagged cases carry neither tags nor meta', async ({ expect }) => {
    const temp = await cleanup.project({
      ...pluginProjectFiles({ cmd: 'true', report: REPORT, table: false }),
      'plain.bench.json': { name: 'plain', cases: [{ id: 'one', prompt: 'p', checks: [] }] },
    });
    const result = await runVitest(['run'], { cwd: temp.dir });
    expect(result.exitCode, output(result)).toBe(0);
    const row = resultOf(await readReport(temp.dir, REPORT), 'one');
    expect(row).not.toHaveProperty('tags');
    expect(row).not.toHaveProperty('meta');
  });
});

describe('tags through gz-bench run', () => {
  async function run(args: string[], spec: object = TAGGED_SUITE): Promise<Result> {
    const temp = await cleanup.project({ 'suite.json': spec });
    return runCli(['run', '--sandbox', 'none', 'suite.json', '--cmd', 'true', ...args], { cwd: temp.dir });
  }

  it('--tags-filter selects cases, and several filters must all match', async ({ expect }) => {
    const result = await run(['--json', '--tags-filter', 'python', '--tags-filter', 'not hard']);
    expect(result.exitCode, output(result)).toBe(0);
    const report = JSON.parse(String(result.stdout)) as Report;
    expect(report.results.map((row) => row.id)).toEqual(['easy-py']);
    expect(resultOf(report, 'easy-py').meta).toEqual({ source: 'ported', difficulty: 'easy' });

    const wildcard = await run(['--json', '--tags-filter', 'py* || bench']);
    expect(wildcard.exitCode, output(wildcard)).toBe(0);
    expect((JSON.parse(String(wildcard.stdout)) as Report).summary.total).toBe(3);
  });

  it('a malformed expression or an unknown tag is a usage error, before Vitest starts', async ({ expect }) => {
    const cases: Array<[string, string]> = [
      ['python &&', 'gz-bench: --tags-filter "python &&": unexpected end of expression'],
      ['python & hard', 'gz-bench: --tags-filter "python & hard": unexpected "&" (use && or ||)'],
      ['(python', 'gz-bench: --tags-filter "(python": missing ")" before end of expression'],
      [
        'rust',
        'gz-bench: --tags-filter "rust": no case has the tag "rust" (the suites\' tags are bench, python, hard)',
      ],
    ];
    for (const [expr, message] of cases) {
      const result = await run(['--tags-filter', expr]);
      expect(result.exitCode, output(result)).toBe(2);
      expect(String(result.stderr).split('\n')[0]).toBe(message);
      expect(result.stdout).toBe('');
    }
  });

  it('a filter that matches no case fails the run and says so', async ({ expect }) => {
    const spec = { ...TAGGED_SUITE, cases: TAGGED_SUITE.cases.slice(0, 1) };
    const result = await run(['--tags-filter', 'bench && !python'], spec);
    expect(result.exitCode, output(result)).toBe(1);
    expect(String(result.stderr)).toContain('gz-bench: no case matches --tags-filter bench && !python');
  });

  it('refuses a tag that --tags-filter could not name, saying where', async ({ expect }) => {
    const spec = { name: 's', cases: [{ id: 'a', prompt: 'p', tags: ['two words'], checks: [] }] };
    const result = await run([], spec);
    expect(result.exitCode, output(result)).toBe(2);
    expect(String(result.stderr)).toContain(
      'tag "two words" must start with a letter or digit and hold only letters, digits and _ . : / + = @ -',
    );
    expect(String(result.stderr)).toContain('cases[0].tags[0]');
    expect(String(result.stderr)).not.toContain('    at ');
  });
});
