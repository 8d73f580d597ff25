import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Report } from '@gz-bench/core';
import type { Result } from 'execa';
import { describe, it } from 'vitest';
import { gnuDiff, withoutNotes } from '../packages/core/src/changes/test-support/gnu-diff.js';
import { cleanupAfterAll } from './support/cleanup.js';
import { pluginConfig } from './support/plugin-project.js';
import { readReport, resultOf } from './support/report.js';
import { runCli, runVitest } from './support/run.js';
import { sh } from './support/shell.js';

// A trial's `changes.diff`, written by a real run through the CLI and through Vitest, says what GNU
// `diff -ruN` says of the workspace as setup left it and as the agent left it. The agent itself copies
// the workspace before and after its work (to `cmp/a` and `cmp/b`), so the comparison is of the very
// trees the harness saw, fixture files, setup's files and all.

const cleanup = cleanupAfterAll();

/** Edits, adds, deletes, makes binary and executable, and fills an excluded tree; copies around it. */
const AGENT = `set -e
ws=$(pwd); out="$1"
rm -rf "$out/a" "$out/b"; mkdir -p "$out"
cp -a "$ws" "$out/a"
printf 'one\\nTWO\\nthree\\nfour\\n' > src/main.txt
printf 'appended by the agent\\n' >> from-setup.txt
rm old.txt
printf 'new file\\nwithout a final newline' > added.txt
printf 'bin\\000ary' > blob.bin
chmod +x run.sh
mkdir -p node_modules/pkg && echo generated > node_modules/pkg/index.js
cp -a "$ws" "$out/b"
`;

function suiteFile(changes?: object | false): object {
  return {
    name: 'changed',
    repo: 'fixture',
    ...(changes !== undefined && { changes }),
    cases: [
      {
        id: 'edits',
        prompt: 'change things',
        setup: ['printf "written by setup\\n" > from-setup.txt', 'printf "echo hi\\n" > run.sh'],
        checks: [{ kind: 'fileContains', path: 'added.txt', text: 'new file' }],
      },
    ],
  };
}

const FIXTURE = {
  'fixture/src/main.txt': 'one\ntwo\nthree\n',
  'fixture/old.txt': 'to be deleted\n',
  'fixture/same.txt': 'left alone\n',
};

function output(result: Result): string {
  return `exit ${result.exitCode}\n--- stdout\n${String(result.stdout)}\n--- stderr\n${String(result.stderr)}`;
}

/** GNU diff of the agent's copies, without the excluded tree, which the suite leaves out. */
async function expectedDiff(dir: string): Promise<string> {
  const cmp = join(dir, 'cmp');
  await rm(join(cmp, 'a', 'node_modules'), { recursive: true, force: true });
  await rm(join(cmp, 'b', 'node_modules'), { recursive: true, force: true });
  return gnuDiff(cmp);
}

describe('changes.diff of a real run', { timeout: 90_000 }, () => {
  it('gz-bench run writes what diff -ruN says, and the row counts it', async ({ expect }) => {
    const p = await cleanup.project({
      'suite.json': suiteFile({ exclude: ['node_modules'] }),
      'agent.sh': AGENT,
      ...FIXTURE,
    });
    const result = await runCli(
      [
        'run',
        'suite.json',
        '--sandbox',
        'none',
        '--logs',
        'logs',
        '--cmd',
        `sh ${sh(join(p.dir, 'agent.sh'))} ${sh(join(p.dir, 'cmp'))}`,
        '--json',
      ],
      { cwd: p.dir },
    );
    expect(result.exitCode, output(result)).toBe(0);
    const row = resultOf(JSON.parse(String(result.stdout)) as Report, 'edits');
    const file = row.changes?.file ?? '';
    expect(file.endsWith('/changes.diff')).toBe(true);
    const diff = (await readFile(join(p.dir, file))).toString('latin1');
    expect(withoutNotes(diff)).toBe(await expectedDiff(p.dir));
    // The mode change, which diff -ruN does not print, is said too.
    expect(diff).toContain('old mode 100644\nnew mode 100755\n');
    expect(row.changes).toMatchObject({
      added: 2,
      modified: 3,
      deleted: 1,
      linesAdded: 5,
      linesRemoved: 2,
      excluded: ['.git', 'node_modules'],
    });
    expect(row.changes?.files.map((f) => [f.path, f.status])).toEqual([
      ['added.txt', 'added'],
      ['blob.bin', 'added'],
      ['from-setup.txt', 'modified'],
      ['old.txt', 'deleted'],
      ['run.sh', 'modified'],
      ['src/main.txt', 'modified'],
    ]);
    expect(row.changes?.files.find((f) => f.path === 'blob.bin')?.binary).toBe(true);
  });

  it('vitest run writes the same diff, and changes: false writes none', async ({ expect }) => {
    const p = await cleanup.project({
      'package.json': { name: 'bench-user', private: true, type: 'module' },
      'bench/changed.bench.json': suiteFile({ exclude: ['node_modules'] }),
      'bench/off.bench.json': { ...suiteFile(false), name: 'off' },
      'agent.sh': AGENT,
      ...Object.fromEntries(Object.entries(FIXTURE).map(([path, text]) => [`bench/${path}`, text])),
    });
    await writeFile(
      join(p.dir, 'vitest.config.ts'),
      pluginConfig({ cmd: `sh ${sh(join(p.dir, 'agent.sh'))} ${sh(join(p.dir, 'cmp'))}` }),
    );
    const result = await runVitest(['run', '-t', 'changed'], { cwd: p.dir });
    expect(result.exitCode, output(result)).toBe(0);
    const changed = resultOf(await readReport(p.dir, '.gz-bench/report.json'), 'edits');
    const diff = (await readFile(join(p.dir, changed.changes?.file ?? 'none'))).toString('latin1');
    expect(withoutNotes(diff)).toBe(await expectedDiff(p.dir));

    const off = await runVitest(['run', '-t', 'off'], { cwd: p.dir });
    expect(off.exitCode, output(off)).toBe(0);
    const row = resultOf(await readReport(p.dir, '.gz-bench/report.json'), 'edits');
    expect(row.suite).toBe('off');
    expect(row.changes).toBeUndefined();
    expect(existsSync(join(p.dir, dirname(row.agent?.log ?? ''), 'changes.diff'))).toBe(false);
  });
});
