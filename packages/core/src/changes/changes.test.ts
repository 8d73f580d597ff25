import { execFileSync, spawnSync } from 'node:child_process';
import { chmod, cp, mkdir, mkdtemp, readFile, realpath, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copyFixture } from '../workspace/copy-fixture.js';
import { removeTree } from '../workspace/remove-tree.js';
import { makeFifo, writeTree } from '../workspace/test-support/fs-tree.js';
import { compareWorkspace } from './compare.js';
import { renderChanges } from './render-diff.js';
import { type ChangesSetting, resolveChanges } from './settings.js';
import { changesFence, type FixtureOrigin, type SnapshotPlan, takeSnapshot } from './snapshot.js';
import { gnuDiff, withoutNotes } from './test-support/gnu-diff.js';

let root: string;
let workspace: string;
let fixture: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'gz-bench-changes-')));
  workspace = join(root, 'workspace');
  fixture = join(root, 'fixture');
  await mkdir(workspace);
});
afterEach(async () => {
  await removeTree(root);
});

/** A plan as run-case makes one: fences around the copy of `fixture`, when there is one. */
async function prepare(options: {
  files?: Record<string, string | [string, number]>;
  setting?: ChangesSetting;
  /** A tick of the clock between the copy and the fence after it, so no copied file shares the fence's tick. */
  settled?: boolean;
}) {
  let fixtureOrigin: SnapshotPlan['fixture'];
  if (options.files !== undefined) {
    await writeTree(fixture, options.files);
    // The fixture is older than the copy, as a suite's fixture is: a tick of the coarse clock between.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const fenceBefore = changesFence(join(root, 'fence'));
    await copyFixture(fixture, workspace);
    if (options.settled) await new Promise((resolve) => setTimeout(resolve, 20));
    fixtureOrigin = { dir: fixture, fenceBefore, fenceAfter: changesFence(join(root, 'fence')) };
  }
  const settings = resolveChanges(options.setting ?? {});
  if (settings === undefined) throw new Error('changes are off');
  const plan: SnapshotPlan = {
    settings,
    keptFile: join(root, 'kept'),
    ...(fixtureOrigin && { fixture: fixtureOrigin }),
  };
  return plan;
}

/** The changes since `snapshot`, and the diff as text (latin1). */
async function changesSince(snapshot: Awaited<ReturnType<typeof takeSnapshot>>) {
  const rendered = renderChanges(snapshot, await compareWorkspace(snapshot));
  return { changes: rendered.changes, diff: rendered.diff.toString('latin1') };
}

/** A copy of the workspace as `a`, for GNU diff to compare with `b`, the workspace later. */
async function keepBefore(): Promise<void> {
  await cp(workspace, join(root, 'a'), { recursive: true, preserveTimestamps: true });
}

async function gnuAfter(): Promise<string> {
  await cp(workspace, join(root, 'b'), { recursive: true });
  return gnuDiff(root);
}

const text = (count: number, word = 'line') => Array.from({ length: count }, (_, i) => `${word} ${i + 1}\n`).join('');

describe('what the agent changed', () => {
  it('says what diff -ruN says of added, modified, deleted, binary and unterminated files', async () => {
    const plan = await prepare({
      files: {
        'src/app.js': text(40),
        'src/gone.txt': text(3),
        'README.md': 'readme\n',
        'tools/run.sh': ['#!/bin/sh\necho run\n', 0o644],
        'a.txt': 'a\n',
        'a/b.txt': 'b\n',
      },
    });
    await keepBefore();
    const snapshot = await takeSnapshot(workspace, plan);
    await writeFile(
      join(workspace, 'src/app.js'),
      text(40).replace('line 7\n', 'line seven\n').replace('line 33\n', ''),
    );
    await rm(join(workspace, 'src/gone.txt'));
    await writeFile(join(workspace, 'src/new.txt'), 'new\nfile');
    await writeFile(join(workspace, 'image.bin'), Buffer.from([0x89, 0x50, 0, 1, 2, 0x0a]));
    await writeFile(join(workspace, 'a.txt'), 'a\nmore\n');
    await writeFile(join(workspace, 'a/b.txt'), 'B\n');
    await chmod(join(workspace, 'tools/run.sh'), 0o755);
    const { changes, diff } = await changesSince(snapshot);
    expect(withoutNotes(diff)).toBe(await gnuAfter());
    expect(changes).toMatchObject({ added: 2, modified: 4, deleted: 1, linesAdded: 5, linesRemoved: 6 });
    expect(changes.files.map((file) => [file.path, file.status])).toEqual([
      ['a/b.txt', 'modified'],
      ['a.txt', 'modified'],
      ['image.bin', 'added'],
      ['src/app.js', 'modified'],
      ['src/gone.txt', 'deleted'],
      ['src/new.txt', 'added'],
      ['tools/run.sh', 'modified'],
    ]);
    expect(changes.files.find((file) => file.path === 'image.bin')).toMatchObject({ binary: true });
    expect(changes.files.find((file) => file.path === 'tools/run.sh')).toEqual({
      path: 'tools/run.sh',
      status: 'modified',
      modeChange: '644 → 755',
    });
    expect(diff).toContain('diff -ruN a/tools/run.sh b/tools/run.sh\nold mode 100644\nnew mode 100755\n');
    expect(changes.diffBytes).toBe(Buffer.byteLength(diff, 'latin1'));
    expect(changes.excluded).toEqual(['.git']);
  });

  it('reads the earlier content of files setup made or changed from the copy it kept', async () => {
    const plan = await prepare({ files: { 'kept.txt': text(5) } });
    // What setup does: a new file, and a file of the fixture changed.
    await writeFile(join(workspace, 'made.txt'), text(4, 'made'));
    await writeFile(join(workspace, 'kept.txt'), text(5, 'setup'));
    await keepBefore();
    const snapshot = await takeSnapshot(workspace, plan);
    expect(snapshot.keptBytes).toBe(Buffer.byteLength(text(4, 'made') + text(5, 'setup')));
    await writeFile(join(workspace, 'made.txt'), text(4, 'made').replace('made 2', 'agent'));
    await writeFile(join(workspace, 'kept.txt'), text(5, 'setup').replace('setup 5', 'agent'));
    const { diff } = await changesSince(snapshot);
    expect(withoutNotes(diff)).toBe(await gnuAfter());
  });

  it('takes the content of copied files from the fixture without reading the workspace copy or keeping one', async () => {
    const plan = await prepare({ files: { 'f.txt': text(5) }, settled: true });
    const snapshot = await takeSnapshot(workspace, plan);
    expect(snapshot.keptBytes).toBe(0);
    expect(snapshot.entries.get('f.txt')?.source).toBe('fixture');
    // Nor the fixture's file: its identity says it is unchanged, until a comparison needs its bytes.
    expect(snapshot.entries.get('f.txt')?.hash).toBeUndefined();
    // A copy in the fence's own tick could have been written after it: its bytes are compared, once.
    const sameTick = await takeSnapshot(workspace, {
      ...plan,
      fixture: { ...(plan.fixture as FixtureOrigin), fenceAfter: 0 },
    });
    expect(sameTick.entries.get('f.txt')).toMatchObject({ source: 'fixture', hash: expect.any(String) });
  });

  it('does not trust a fixture or a kept copy the agent rewrote: the earlier content is said not to be kept', async () => {
    const plan = await prepare({ files: { 'from-fixture.txt': text(3) } });
    await writeFile(join(workspace, 'from-setup.txt'), text(3, 'setup'));
    const snapshot = await takeSnapshot(workspace, plan);
    await writeFile(join(fixture, 'from-fixture.txt'), text(3, 'forged'));
    await writeFile(plan.keptFile, text(3, 'forgery'));
    await writeFile(join(workspace, 'from-fixture.txt'), 'agent\n');
    await writeFile(join(workspace, 'from-setup.txt'), 'agent\n');
    const { changes, diff } = await changesSince(snapshot);
    expect(changes.modified).toBe(2);
    expect(diff).toContain(
      'Files a/from-fixture.txt and b/from-fixture.txt differ: the content of a/from-fixture.txt before the agent was not kept\n',
    );
    expect(diff).toContain('the content of a/from-setup.txt before the agent was not kept');
    expect(diff).not.toContain('forg');
  });

  it('lists a file rewritten with the same bytes as unchanged, and one touched too', async () => {
    const plan = await prepare({ files: { 'same.txt': 'same\n', 'touched.txt': 'touched\n' } });
    const snapshot = await takeSnapshot(workspace, plan);
    await rm(join(workspace, 'same.txt'));
    await writeFile(join(workspace, 'same.txt'), 'same\n');
    execFileSync('touch', [join(workspace, 'touched.txt')]);
    const { changes, diff } = await changesSince(snapshot);
    expect(changes).toMatchObject({ added: 0, modified: 0, deleted: 0, files: [] });
    expect(diff).toBe('');
  });

  it('names files over maxFileKB, and cuts the diff at maxDiffKB, saying so', async () => {
    const plan = await prepare({ setting: { maxFileKB: 1, maxDiffKB: 2 } });
    const snapshot = await takeSnapshot(workspace, plan);
    await writeFile(join(workspace, 'big.txt'), 'x'.repeat(2000));
    for (let index = 0; index < 10; index += 1) await writeFile(join(workspace, `n${index}.txt`), text(20));
    const { changes, diff } = await changesSince(snapshot);
    expect(diff).toContain('Files a/big.txt and b/big.txt differ: larger than 1 KiB (changes.maxFileKB), not shown\n');
    expect(changes.files[0]).toEqual({ path: 'big.txt', status: 'added', tooLarge: true });
    expect(changes.truncated).toBe(true);
    expect(changes.added).toBe(11);
    expect(Buffer.byteLength(diff)).toBeLessThan(2048 + 200);
    expect(diff).toMatch(
      /\n# the diff was cut at 2 KiB \(changes\.maxDiffKB\): \d+ changed files are not shown in full\n$/,
    );
  });

  it('leaves out excluded trees and .git, without entering them', async () => {
    const plan = await prepare({ setting: { exclude: ['node_modules', 'dist/**', '*.log'] } });
    await mkdir(join(workspace, 'node_modules/pkg'), { recursive: true });
    await mkdir(join(workspace, '.git'));
    const snapshot = await takeSnapshot(workspace, plan);
    await writeTree(workspace, {
      'node_modules/pkg/index.js': 'x\n',
      'deep/node_modules/y.js': 'y\n',
      'dist/out.js': 'z\n',
      'app.log': 'log\n',
      '.git/HEAD': 'ref\n',
      'kept.js': 'k\n',
    });
    // A directory the walk would fail on, were it entered.
    await chmod(join(workspace, 'node_modules'), 0o000);
    const { changes } = await changesSince(snapshot);
    await chmod(join(workspace, 'node_modules'), 0o755);
    expect(changes.files.map((file) => file.path)).toEqual(['kept.js']);
    expect(changes.excluded).toEqual(['.git', 'node_modules', 'dist/**', '*.log']);
  });

  it('compares link targets without following them, and never opens a FIFO', async () => {
    const plan = await prepare({ files: { 'secret-target.txt': 'never read\n', 'link-me.txt': 'x\n' } });
    await symlink('old-target', join(workspace, 'link'));
    const snapshot = await takeSnapshot(workspace, plan);
    await rm(join(workspace, 'link'));
    await symlink('/etc/passwd', join(workspace, 'link'));
    await symlink(join(root, 'outside.txt'), join(workspace, 'new-link'));
    await writeFile(join(root, 'outside.txt'), 'outside\n');
    makeFifo(join(workspace, 'pipe'));
    await rm(join(workspace, 'link-me.txt'));
    await symlink('secret-target.txt', join(workspace, 'link-me.txt'));
    const { changes, diff } = await changesSince(snapshot);
    expect(diff).toContain('Symbolic links a/link -> old-target and b/link -> /etc/passwd differ\n');
    expect(diff).toContain('File a/pipe is absent while file b/pipe is a fifo\n');
    expect(diff).toContain(
      'File a/link-me.txt is a regular file while file b/link-me.txt is a symbolic link to secret-target.txt\n',
    );
    expect(diff).not.toContain('outside\n');
    expect(diff).not.toContain('root:');
    expect(changes.files.filter((file) => file.symlink).map((file) => file.path)).toEqual([
      'link',
      'link-me.txt',
      'new-link',
    ]);
  });

  it('keeps names that are not UTF-8 or hold newlines apart, quoted where they would break a line', async () => {
    const plan = await prepare({});
    const snapshot = await takeSnapshot(workspace, plan);
    const invalid = Buffer.concat([Buffer.from(`${workspace}/bad-`), Buffer.from([0xff, 0xfe]), Buffer.from('.txt')]);
    await writeFile(invalid, 'invalid name\n');
    await writeFile(join(workspace, 'two\nlines.txt'), 'newline name\n');
    const { changes, diff } = await changesSince(snapshot);
    expect(changes.added).toBe(2);
    expect(diff).toContain('diff -ruN "a/two\\nlines.txt" "b/two\\nlines.txt"\n');
    // The bytes of the name go into the diff as they are, as diff writes them.
    expect(diff).toContain('+++ b/bad-\xff\xfe.txt\n');
    expect(changes.files.map((file) => file.path)).toEqual(['bad-\ufffd\ufffd.txt', 'two\nlines.txt']);
  });

  it('does not hang on a huge sparse file', async () => {
    const plan = await prepare({});
    const snapshot = await takeSnapshot(workspace, plan);
    const sparse = join(workspace, 'sparse.bin');
    await writeFile(sparse, '');
    await truncate(sparse, 64 * 2 ** 30);
    const started = performance.now();
    const { changes } = await changesSince(snapshot);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(changes.files).toEqual([{ path: 'sparse.bin', status: 'added', tooLarge: true }]);
  });

  // As root, mode 000 stops nothing: then what is inside is compared as usual.
  const root_ = process.getuid?.() === 0;
  it(`does not crash on a mode 000 directory and file (${root_ ? 'as root: read anyway' : 'not read'})`, async () => {
    const plan = await prepare({ files: { 'locked/inner.txt': 'inner\n', 'secret.txt': 'secret\n' } });
    const snapshot = await takeSnapshot(workspace, plan);
    await writeFile(join(workspace, 'locked/inner.txt'), 'changed\n');
    await chmod(join(workspace, 'locked'), 0o000);
    await writeFile(join(workspace, 'secret.txt'), 'changed\n');
    await chmod(join(workspace, 'secret.txt'), 0o000);
    const { changes, diff } = await changesSince(snapshot);
    await chmod(join(workspace, 'locked'), 0o755);
    if (root_) {
      expect(changes.files.map((file) => file.path)).toEqual(['locked/inner.txt', 'secret.txt']);
      expect(diff).toContain('+changed\n');
    } else {
      expect(changes.files).toEqual([{ path: 'secret.txt', status: 'modified', modeChange: '644 → 0' }]);
      expect(diff).toContain('# not compared: locked could not be read (EACCES)\n');
      expect(diff).toContain('Files a/secret.txt and b/secret.txt differ: b/secret.txt could not be read\n');
    }
    expect(changes.files.find((file) => file.path === 'secret.txt')?.modeChange).toBe('644 → 0');
  });

  it('lists a file that became a directory as deleted, and what the directory holds as added', async () => {
    const plan = await prepare({ files: { 'x/inner.txt': 'inner\n', y: 'y\n' } });
    await keepBefore();
    const snapshot = await takeSnapshot(workspace, plan);
    await rm(join(workspace, 'x'), { recursive: true });
    await writeFile(join(workspace, 'x'), 'now a file\n');
    await rm(join(workspace, 'y'));
    await mkdir(join(workspace, 'y'));
    await writeFile(join(workspace, 'y/z.txt'), 'z\n');
    const { changes, diff } = await changesSince(snapshot);
    expect(changes.files.map((file) => [file.path, file.status])).toEqual([
      ['x', 'added'],
      ['x/inner.txt', 'deleted'],
      ['y', 'deleted'],
      ['y/z.txt', 'added'],
    ]);
    // GNU diff words a file against a directory its own way; the hunks of the rest are the same.
    const gnu = await gnuAfter();
    expect(gnu).toContain('File a/x is a directory while file b/x is a regular file');
    for (const path of ['x/inner.txt', 'y/z.txt']) expect(diff).toContain(`+++ b/${path}\n`);
  });

  it('is off with changes: false', () => {
    expect(resolveChanges(false)).toBeUndefined();
  });
});

describe('the diff as a file', () => {
  it('applies with patch to the copy before, giving the workspace after', async () => {
    const plan = await prepare({ files: { 'a.txt': text(30), 'b.txt': 'b', 'c/d.txt': text(3) } });
    await keepBefore();
    const snapshot = await takeSnapshot(workspace, plan);
    await writeFile(join(workspace, 'a.txt'), text(30).replace('line 2\n', '').replace('line 20\n', 'twenty\n'));
    await writeFile(join(workspace, 'b.txt'), 'b\n');
    await rm(join(workspace, 'c/d.txt'));
    await writeFile(join(workspace, 'e.txt'), 'e');
    const rendered = renderChanges(snapshot, await compareWorkspace(snapshot));
    await writeFile(join(root, 'changes.diff'), rendered.diff);
    const patch = spawnSync('patch', ['-p1', '-s', '-i', join(root, 'changes.diff')], { cwd: join(root, 'a') });
    expect(patch.stderr.toString()).toBe('');
    for (const name of ['a.txt', 'b.txt', 'e.txt']) {
      expect(await readFile(join(root, 'a', name), 'utf8')).toBe(await readFile(join(workspace, name), 'utf8'));
    }
  });
});
