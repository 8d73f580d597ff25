import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { cleanupAfterAll } from '../support/cleanup.js';
import { runCli } from '../support/run.js';
import { writeSampleReport } from './support/sample-report.js';

// `gz-bench view` as a process: where it writes, what it prints, and one line for a report it cannot read.

const { project } = cleanupAfterAll();

describe('gz-bench view', () => {
  it('writes report.html beside the report, prints its path, and embeds the rows’ diffs and trajectories', async ({
    expect,
  }) => {
    const temp = await project();
    const report = await writeSampleReport(temp.dir);
    const result = await runCli(['view', report], { cwd: temp.dir });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    const page = join(temp.dir, '.gz-bench', 'report.html');
    expect(result.stdout).toBe(page);
    const html = await readFile(page, 'utf8');
    expect(html).toContain('diff -ruN a/src/range.js b/src/range.js');
    expect(html).toContain('node test/range.test.js');
    // Links are relative to the page, which lies in .gz-bench/ beside the logs.
    expect(html).toContain('"href":"logs/bench_basics.bench.json/write-hello/claude-code/trial-1/agent.log"');
  });

  it('writes where -o says, and links from there', async ({ expect }) => {
    const temp = await project();
    const report = await writeSampleReport(temp.dir);
    const result = await runCli(['view', report, '-o', 'out/page.html'], { cwd: temp.dir });
    expect(result.exitCode).toBe(0);
    const html = await readFile(join(temp.dir, 'out', 'page.html'), 'utf8');
    expect(html).toContain(
      '"href":"../.gz-bench/logs/bench_basics.bench.json/write-hello/claude-code/trial-1/agent.log"',
    );
  });

  it('says in one line, exit 2, what is wrong with the report', async ({ expect }) => {
    const temp = await project();
    await writeFile(join(temp.dir, 'package.json'), '{"name":"x"}');
    await writeFile(join(temp.dir, 'broken.json'), '{');
    const cases: Array<[string[], RegExp]> = [
      [['view', 'missing.json'], /^gz-bench: missing\.json does not exist$/],
      [['view', 'broken.json'], /^gz-bench: broken\.json is not valid JSON \(.+\)$/],
      [
        ['view', 'package.json'],
        /^gz-bench: package\.json is not a gz-bench JSON report \(no "summary" and "results"\)/,
      ],
      [['view', '.'], /^gz-bench: \. is a directory, not a gz-bench JSON report$/],
      [
        ['view'],
        /^gz-bench: view takes one report: gz-bench view <report\.json> \[-o report\.html\]\nRun "gz-bench --help" for usage\.$/,
      ],
      [['view', 'a.json', '--bogus'], /^gz-bench: Unknown option '--bogus'\nRun "gz-bench --help" for usage\.$/],
    ];
    for (const [args, message] of cases) {
      const result = await runCli(args, { cwd: temp.dir });
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(String(result.stderr).trim(), args.join(' ')).toMatch(message);
      expect(result.stdout).toBe('');
    }
  });

  it('says in one line when the page cannot be written', async ({ expect }) => {
    const temp = await project();
    const report = await writeSampleReport(temp.dir);
    await writeFile(join(temp.dir, 'file'), '');
    const result = await runCli(['view', report, '-o', 'file/page.html'], { cwd: temp.dir });
    expect(result.exitCode).toBe(2);
    expect(String(result.stderr).trim()).toMatch(
      /^gz-bench: file\/page\.html: cannot write the page there \((EEXIST|ENOTDIR)\)$/,
    );
  });
});
