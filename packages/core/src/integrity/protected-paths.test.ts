import { mkdtemp, realpath, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeTree } from '../workspace/remove-tree.js';
import { makeFifo, writeTree } from '../workspace/test-support/fs-tree.js';
import { ProtectError } from './protect-error.js';
import { assertProtectable, normalizeProtectedPath, protectedPaths } from './protected-paths.js';

let root: string;
let fixture: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'gz-bench-protect-')));
  fixture = join(root, 'fixture');
});

afterEach(async () => {
  await removeTree(root);
});

describe('normalizeProtectedPath', () => {
  it.each([
    ['test/', 'test'],
    ['./checks//run.sh', 'checks/run.sh'],
    ['a/b/../c', 'a/c'],
    ['.github/workflows', '.github/workflows'],
  ])('%s → %s', (entry, expected) => {
    expect(normalizeProtectedPath(entry)).toBe(expected);
  });

  it.each([
    ['', 'protected path is empty'],
    ['/etc/passwd', 'protected path must be relative to the fixture: /etc/passwd'],
    ['../secrets', 'protected path leaves the fixture: ../secrets'],
    ['test/../../x', 'protected path leaves the fixture: test/../../x'],
    ['..', 'protected path leaves the fixture: ..'],
    ['.', 'protected path must name a file or directory inside the fixture, not the fixture itself: .'],
    ['./', 'protected path must name a file or directory inside the fixture, not the fixture itself: ./'],
    ['.git/hooks', 'protected path is inside .git, which gz-bench manages: .git/hooks'],
    ['vendor/.GIT/config', 'protected path is inside .git, which gz-bench manages: vendor/.GIT/config'],
    ['a\0b', 'protected path contains a NUL character: "a\\u0000b"'],
  ])('refuses %j', (entry, message) => {
    expect(() => normalizeProtectedPath(entry)).toThrow(
      expect.objectContaining({ name: 'ProtectError', code: 'GZ_BENCH_INVALID_PROTECT', path: entry, message }),
    );
  });
});

describe('protectedPaths', () => {
  beforeEach(async () => {
    await writeTree(fixture, {
      'checks/run.sh': ['#!/bin/sh\n', 0o755],
      'test/check.js': 'x',
      'test/with space.js': 'x',
      'test/nested/deep.mjs': 'x',
      'verify.sh': ['#!/bin/sh\n', 0o755],
      'src/sum.js': 'x',
      'tests/test_a.py': 'x',
      '.git/hooks/pre-commit': 'x',
    });
    await symlink('checks/run.sh', join(fixture, 'linked.sh'));
  });

  it('keeps explicit entries, normalised, deduplicated and sorted', async () => {
    expect(await protectedPaths(fixture, ['test/', './checks//run.sh', 'checks/run.sh', 'missing/'], [])).toEqual([
      'checks/run.sh',
      'missing',
      'test',
    ]);
  });

  it('throws for an explicit entry outside the fixture', async () => {
    await expect(protectedPaths(fixture, ['../x'], [])).rejects.toThrow('protected path leaves the fixture: ../x');
    await expect(protectedPaths(fixture, ['/abs'], [])).rejects.toBeInstanceOf(ProtectError);
  });

  it('adds the fixture files that command checks run', async () => {
    expect(
      await protectedPaths(
        fixture,
        [],
        [
          'bash checks/run.sh',
          'node test/check.js && echo ok',
          './verify.sh',
          'python -m pytest tests/',
          `sh -c "node 'test/with space.js'"`,
          'FOO=1 node ./test/nested/../nested/deep.mjs > out.txt 2>&1',
          'node test/created-by-agent.js',
          'node ../fixture/verify.sh /etc/passwd',
          'cat .git/hooks/pre-commit',
          'node linked.sh',
        ],
      ),
    ).toEqual([
      'checks/run.sh',
      'linked.sh',
      'test/check.js',
      'test/nested/deep.mjs',
      'test/with space.js',
      'verify.sh',
    ]);
  });

  it('leaves alone the fixture files a command only reads or passes as arguments, and directories it names', async () => {
    // An agent fixing src/sum.js must not be reported as tampering because a check looks at it.
    expect(
      await protectedPaths(
        fixture,
        [],
        [
          'node test/check.js src/sum.js',
          'ls test checks/',
          'git diff --name-only | grep -qx src/sum.js',
          'cat src/sum.js',
        ],
      ),
    ).toEqual(['test/check.js']);
    expect(await protectedPaths(fixture, ['tests/'], ['python -m pytest tests/'])).toEqual(['tests']);
  });
});

describe('assertProtectable', () => {
  beforeEach(async () => {
    await writeTree(fixture, { 'checks/run.sh': ['#!/bin/sh\n', 0o755], 'test/a.js': 'x', 'file.txt': 'x' });
    await symlink('checks', join(fixture, 'checks-link'));
    await symlink('run.sh', join(fixture, 'checks/alias.sh'));
  });

  it('accepts regular files and directories', async () => {
    await expect(assertProtectable(fixture, ['checks/run.sh', 'test', 'test/', 'file.txt'])).resolves.toBeUndefined();
  });

  it('refuses a protected path that is a symlink', async () => {
    await expect(assertProtectable(fixture, ['test', 'checks/alias.sh'])).rejects.toMatchObject({
      name: 'ProtectError',
      code: 'GZ_BENCH_INVALID_PROTECT',
      path: 'checks/alias.sh',
      message: 'protected path is a symlink: checks/alias.sh',
    });
    await expect(assertProtectable(fixture, ['checks-link'])).rejects.toThrow(
      'protected path is a symlink: checks-link',
    );
  });

  it('refuses a protected path that passes through a symlink', async () => {
    await expect(assertProtectable(fixture, ['checks-link/run.sh'])).rejects.toThrow(
      'protected path passes through a symlink: checks-link/run.sh (checks-link is a symlink)',
    );
  });

  it('refuses a protected path that does not exist in the fixture', async () => {
    await expect(assertProtectable(fixture, ['tests/'])).rejects.toMatchObject({
      path: 'tests/',
      message: 'protected path does not exist in the fixture: tests/',
    });
    await expect(assertProtectable(fixture, ['file.txt/child'])).rejects.toThrow(
      'protected path does not exist in the fixture: file.txt/child',
    );
  });

  it('refuses special files and invalid paths', async () => {
    makeFifo(join(fixture, 'pipe'));
    await expect(assertProtectable(fixture, ['pipe'])).rejects.toThrow(
      'protected path is not a regular file or directory: pipe',
    );
    await expect(assertProtectable(fixture, ['/etc'])).rejects.toThrow('protected path must be relative');
  });

  it('refuses a symlinked checker that a command check names', async () => {
    const paths = await protectedPaths(fixture, [], ['sh checks/alias.sh']);
    await expect(assertProtectable(fixture, paths)).rejects.toThrow('protected path is a symlink: checks/alias.sh');
  });
});
