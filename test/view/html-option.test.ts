import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { cleanupAfterAll } from '../support/cleanup.js';
import { pluginProjectFiles, replyCase, SCRIPTED_CMD } from '../support/plugin-project.js';
import { runCli, runVitest } from '../support/run.js';

// The page written by a run: the plugin's `html` option (and GZ_BENCH_HTML) after the JSON report, and
// `gz-bench run --html FILE`. Their rows name the agent's log, linked relative to the page.

const { project } = cleanupAfterAll();

const SUITE = { name: 'replies', cases: [replyCase('say-done', 'done'), replyCase('say-other', 'other', 'never')] };

function embedded(html: string): { rows: unknown[][]; cases: string[][] } {
  const match = /<script type="application\/json" id="gz-data">(.*?)<\/script>/s.exec(html);
  return JSON.parse(match?.[1] ?? 'null');
}

describe('the page of a run', () => {
  it('the plugin writes it where its html option says, after the JSON report', async ({ expect }) => {
    const temp = await project({
      ...pluginProjectFiles({ cmd: SCRIPTED_CMD, html: 'out/bench.html' }),
      'bench/replies.bench.json': SUITE,
    });
    const result = await runVitest(['run'], { cwd: temp.dir });
    expect(result.exitCode, String(result.stderr)).toBe(1);
    const html = await readFile(join(temp.dir, 'out', 'bench.html'), 'utf8');
    expect(embedded(html).cases.map((each) => each[2])).toEqual(['say-done', 'say-other']);
    expect(html).toMatch(/"href":"\.\.\/\.gz-bench\/logs\/[^"]+\/say-done\/agent\.log"/);
  });

  it('GZ_BENCH_HTML=false turns the option off', async ({ expect }) => {
    const temp = await project({
      ...pluginProjectFiles({ cmd: SCRIPTED_CMD, html: 'out/bench.html' }),
      'bench/replies.bench.json': SUITE,
    });
    await runVitest(['run'], { cwd: temp.dir, env: { GZ_BENCH_HTML: 'false' } });
    await expect(readFile(join(temp.dir, 'out', 'bench.html'))).rejects.toThrow(/ENOENT/);
    await readFile(join(temp.dir, '.gz-bench', 'report.json'));
  });

  it('gz-bench run --html writes it, and --logs files are linked from it', async ({ expect }) => {
    const temp = await project({ 'replies.bench.json': SUITE });
    const result = await runCli(
      [
        'run',
        'replies.bench.json',
        '--cmd',
        SCRIPTED_CMD,
        '--sandbox',
        'none',
        '--logs',
        'logs',
        '--html',
        'page/run.html',
      ],
      { cwd: temp.dir },
    );
    expect(result.exitCode, String(result.stderr)).toBe(1);
    const html = await readFile(join(temp.dir, 'page', 'run.html'), 'utf8');
    expect(embedded(html).rows).toHaveLength(2);
    expect(html).toMatch(/"href":"\.\.\/logs\/[^"]+\/say-other\/agent\.log"/);
  });
});
