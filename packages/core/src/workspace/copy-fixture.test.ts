import { execFileSync } from 'node:child_process';
import { lstatSync, readdirSync } from 'node:fs';
import {
  chmod,
  copyFile,
  cp,
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  readlink,
  realpath,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  classifyFixtureEntry,
  copyFixture,
  DIRECTORY_LANES,
  FIXTURE_COPY_CONCURRENCY,
  FixtureError,
  type FixtureFs,
  type SkippedEntry,
  type SkipReason,
} from './copy-fixture.js';
import { isSecretPath } from './secret-files.js';
import { makeFifo, makeSocket, snapshotTree, treePaths, writeTree } from './test-support/fs-tree.js';
import { mountReflinkFileSystem, type ReflinkMount, sharesExtents } from './test-support/reflink-mount.js';

const WITH_SECRETS = fileURLToPath(new URL('../../../../fixtures/repos/with-secrets', import.meta.url));

let root: string;
let fixture: string;
let target: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'gz-bench-copy-')));
  fixture = join(root, 'fixture');
  target = join(root, 'target');
  await mkdir(fixture);
  await mkdir(target);
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** What copyFixture reports for `paths` all skipped for the same reason, in the order given. */
function skippedAs(reason: SkipReason, paths: string[]): SkippedEntry[] {
  return paths.map((path) => ({ path, reason }));
}

describe('copyFixture', () => {
  it('copies files and directories with their content and permission bits', async () => {
    await writeTree(fixture, {
      'README.md': '# hello\n',
      'src/index.js': 'export {};\n',
      'src/deep/er/file.txt': 'deep\n',
      'bin/run.sh': ['#!/bin/sh\necho hi\n', 0o755],
      'private.txt': ['owner only\n', 0o600],
    });
    await chmod(join(fixture, 'bin'), 0o750);
    await mkdir(join(fixture, 'empty'));

    const copy = await copyFixture(fixture, target);

    expect(copy).toEqual({ files: 5, skipped: [] });
    expect(await snapshotTree(target)).toEqual(await snapshotTree(fixture));
    expect((await stat(join(target, 'bin/run.sh'))).mode & 0o777).toBe(0o755);
    expect((await stat(join(target, 'private.txt'))).mode & 0o777).toBe(0o600);
    expect((await stat(join(target, 'bin'))).mode & 0o777).toBe(0o750);
    expect((await stat(join(target, 'empty'))).isDirectory()).toBe(true);
  });

  it('fills read-only fixture directories and keeps them read-only', async () => {
    await writeTree(fixture, { 'locked/a.txt': 'a\n' });
    await chmod(join(fixture, 'locked'), 0o555);
    try {
      await copyFixture(fixture, target);
      expect(await readFile(join(target, 'locked/a.txt'), 'utf8')).toBe('a\n');
      expect((await stat(join(target, 'locked'))).mode & 0o777).toBe(0o555);
    } finally {
      await chmod(join(fixture, 'locked'), 0o755);
      await chmod(join(target, 'locked'), 0o755).catch(() => {});
    }
  });

  it('drops setuid, setgid and sticky bits', async () => {
    await writeTree(fixture, { 'tool.sh': ['#!/bin/sh\n', 0o755] });
    await chmod(join(fixture, 'tool.sh'), 0o6755);
    await copyFixture(fixture, target);
    expect((await stat(join(target, 'tool.sh'))).mode & 0o7777).toBe(0o755);
  });

  it('never follows or recreates symlinks, relative or absolute, to files or directories', async () => {
    const outside = join(root, 'outside');
    await writeTree(outside, { 'secret.txt': 'outside\n' });
    await writeTree(fixture, { 'README.md': 'readme\n', 'docs/guide.md': 'guide\n' });
    await symlink('README.md', join(fixture, 'relative-link'));
    await symlink(join(outside, 'secret.txt'), join(fixture, 'absolute-link'));
    await symlink('../outside', join(fixture, 'dir-link'));
    await symlink('docs', join(fixture, 'docs-link'));
    await symlink('nowhere', join(fixture, 'dangling'));
    await symlink('../README.md', join(fixture, 'docs/up'));

    const copy = await copyFixture(fixture, target);

    expect(copy.files).toBe(2);
    expect(copy.skipped).toEqual(
      skippedAs('symlink', ['absolute-link', 'dangling', 'dir-link', 'docs-link', 'docs/up', 'relative-link']),
    );
    expect(await snapshotTree(target)).toEqual({
      'README.md': expect.stringMatching(/^file 644 /),
      docs: 'dir 755',
      'docs/guide.md': expect.stringMatching(/^file 644 /),
    });
  });

  it('skips FIFOs and sockets as special files without blocking on them', async () => {
    await writeTree(fixture, { 'a.txt': 'a\n' });
    makeFifo(join(fixture, 'pipe'));
    await mkdir(join(fixture, 'run'));
    const server = await makeSocket(join(fixture, 'run/app.sock'));
    try {
      const copy = await copyFixture(fixture, target);
      expect(copy).toEqual({ files: 1, skipped: skippedAs('special', ['pipe', 'run/app.sock']) });
      expect(await snapshotTree(target)).toEqual({ 'a.txt': expect.any(String), run: 'dir 755' });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('skips block and character devices as special', async () => {
    await writeTree(fixture, { 'a.txt': 'a\n' });
    try {
      execFileSync('mknod', [join(fixture, 'null'), 'c', '1', '3']);
      execFileSync('mknod', [join(fixture, 'loop'), 'b', '7', '0']);
    } catch {
      // Without the privilege to make device nodes, classify the system's own devices instead.
      expect(classifyFixtureEntry('null', await lstat('/dev/null'))).toBe('special');
      return;
    }
    const copy = await copyFixture(fixture, target);
    expect(copy).toEqual({ files: 1, skipped: skippedAs('special', ['loop', 'null']) });
    expect(await treePaths(target)).toEqual(['a.txt']);
  });

  it('skips .git directories and gitdir files at any depth', async () => {
    await writeTree(fixture, {
      '.git/HEAD': 'ref: refs/heads/main\n',
      '.git/hooks/pre-commit': ['#!/bin/sh\nexit 1\n', 0o755],
      'vendor/lib/.git': 'gitdir: ../../.git/modules/lib\n',
      'vendor/lib/index.js': 'export {};\n',
      '.gitignore': 'node_modules/\n',
      '.github/workflows/ci.yml': 'on: push\n',
    });

    const copy = await copyFixture(fixture, target);

    expect(copy.skipped).toEqual(skippedAs('git', ['.git', 'vendor/lib/.git']));
    expect(await treePaths(target)).toEqual([
      '.github',
      '.github/workflows',
      '.github/workflows/ci.yml',
      '.gitignore',
      'vendor',
      'vendor/lib',
      'vendor/lib/index.js',
    ]);
  });

  it('skips secret-looking files and directories, and keeps ordinary ones', async () => {
    await writeTree(fixture, {
      '.env': 'TOKEN=x\n',
      '.env.local': 'TOKEN=x\n',
      '.env.production': 'TOKEN=x\n',
      '.env.example': 'TOKEN=\n',
      '.env.sample': 'TOKEN=\n',
      '.env.template': 'TOKEN=\n',
      '.env.dist': 'TOKEN=\n',
      'packages/api/.env': 'TOKEN=x\n',
      'certs/server.pem': 'x',
      'certs/server.key': 'x',
      'certs/bundle.p12': 'x',
      'certs/bundle.pfx': 'x',
      'certs/README.md': 'how to make certs\n',
      'home/id_rsa': 'x',
      'home/id_rsa.pub': 'ssh-rsa AAAA\n',
      'home/id_ed25519': 'x',
      'home/id_ecdsa': 'x',
      'home/id_dsa': 'x',
      '.npmrc': '//registry.npmjs.org/:_authToken=x\n',
      '.netrc': 'machine x\n',
      '.pypirc': '[pypi]\n',
      '.git-credentials': 'https://x:y@github.com\n',
      '.ssh/config': 'Host *\n',
      '.ssh/known_hosts': 'x\n',
      '.aws/credentials': '[default]\n',
      '.gnupg/pubring.kbx': 'x',
      '.docker/config.json': '{"auths":{}}\n',
      '.docker/Dockerfile': 'FROM node\n',
      'config.json': '{}\n',
      'src/config.json': '{}\n',
      'src/credentials.js': 'export const credentials = process.env.TOKEN;\n',
      'src/keys.js': 'export {};\n',
    });

    const copy = await copyFixture(fixture, target);

    expect(copy.skipped).toEqual(
      skippedAs('secret', [
        '.aws',
        '.docker/config.json',
        '.env',
        '.env.local',
        '.env.production',
        '.git-credentials',
        '.gnupg',
        '.netrc',
        '.npmrc',
        '.pypirc',
        '.ssh',
        'certs/bundle.p12',
        'certs/bundle.pfx',
        'certs/server.key',
        'certs/server.pem',
        'home/id_dsa',
        'home/id_ecdsa',
        'home/id_ed25519',
        'home/id_rsa',
        'packages/api/.env',
      ]),
    );
    const snapshot = await snapshotTree(target);
    const copiedFiles = Object.keys(snapshot).filter((path) => snapshot[path]?.startsWith('file'));
    expect(copiedFiles).toEqual([
      '.docker/Dockerfile',
      '.env.dist',
      '.env.example',
      '.env.sample',
      '.env.template',
      'certs/README.md',
      'config.json',
      'home/id_rsa.pub',
      'src/config.json',
      'src/credentials.js',
      'src/keys.js',
    ]);
    expect(copy.files).toBe(11);
  });

  it('copies secrets when allowSecrets is set', async () => {
    await writeTree(fixture, { '.env': 'TOKEN=x\n', '.ssh/id_rsa': 'x', 'a.pem': 'x' });
    const copy = await copyFixture(fixture, target, { allowSecrets: true });
    expect(copy).toEqual({ files: 3, skipped: [] });
    expect(await snapshotTree(target)).toEqual(await snapshotTree(fixture));
  });

  it('copies the with-secrets fixture repository as documented, leaving it byte-identical', async () => {
    const source = join(root, 'with-secrets');
    // A private copy (symlinks kept as links), so what this test adds never lands in the repository.
    await cp(WITH_SECRETS, source, { recursive: true, verbatimSymlinks: true });
    makeFifo(join(source, 'fifo'));
    await symlink('/etc/passwd', join(source, 'absolute-link'));
    const before = await snapshotTree(source);

    const copy = await copyFixture(source, target);

    expect(copy.skipped).toEqual([
      { path: '.env', reason: 'secret' },
      { path: '.ssh', reason: 'secret' },
      { path: 'absolute-link', reason: 'symlink' },
      { path: 'fifo', reason: 'special' },
      { path: 'keys/server.pem', reason: 'secret' },
      { path: 'link-to-readme', reason: 'symlink' },
    ]);
    expect(await treePaths(target)).toEqual(['.env.example', 'README.md', 'config', 'config/app.json', 'keys']);
    expect(await snapshotTree(source)).toEqual(before);
    expect(await readlink(join(source, 'absolute-link'))).toBe('/etc/passwd');
  });

  it('never writes to the fixture', async () => {
    await writeTree(fixture, { 'a/b/c.txt': 'c\n', 'x.sh': ['#!/bin/sh\n', 0o755], '.env': 's' });
    await symlink('a', join(fixture, 'link'));
    makeFifo(join(fixture, 'pipe'));
    const before = await snapshotTree(fixture);
    const mtimes = (await stat(join(fixture, 'a/b/c.txt'))).mtimeMs;

    await copyFixture(fixture, target);

    expect(await snapshotTree(fixture)).toEqual(before);
    expect((await stat(join(fixture, 'a/b/c.txt'))).mtimeMs).toBe(mtimes);
  });

  it('refuses a fixture that is a symlink, a file, or missing', async () => {
    await writeTree(root, { 'file.txt': 'x' });
    await symlink(fixture, join(root, 'fixture-link'));

    await expect(copyFixture(join(root, 'fixture-link'), target)).rejects.toMatchObject({
      name: 'FixtureError',
      code: 'GZ_BENCH_FIXTURE_INVALID',
      message: `fixture is a symlink: ${join(root, 'fixture-link')}; name the directory it points to instead`,
    });
    await expect(copyFixture(join(root, 'file.txt'), target)).rejects.toMatchObject({
      code: 'GZ_BENCH_FIXTURE_INVALID',
      message: `fixture is not a directory: ${join(root, 'file.txt')}`,
    });
    await expect(copyFixture(join(root, 'missing'), target)).rejects.toMatchObject({
      code: 'GZ_BENCH_FIXTURE_NOT_FOUND',
      message: `fixture directory not found: ${join(root, 'missing')}`,
    });
    await expect(copyFixture(join(root, 'missing'), target)).rejects.toBeInstanceOf(FixtureError);
  });

  it('refuses a target that is missing, not empty, a symlink, or inside the fixture', async () => {
    await writeTree(fixture, { 'a.txt': 'a' });
    await expect(copyFixture(fixture, join(root, 'nope'))).rejects.toMatchObject({
      code: 'GZ_BENCH_WORKSPACE_INVALID',
      message: `cannot copy the fixture into ${join(root, 'nope')}: not a directory`,
    });
    await writeFile(join(target, 'leftover'), 'x');
    await expect(copyFixture(fixture, target)).rejects.toMatchObject({
      message: `cannot copy the fixture into ${target}: it is not empty`,
    });
    const empty = join(root, 'empty');
    await mkdir(empty);
    await symlink(empty, join(root, 'target-link'));
    await expect(copyFixture(fixture, join(root, 'target-link'))).rejects.toMatchObject({
      code: 'GZ_BENCH_WORKSPACE_INVALID',
    });
    await mkdir(join(fixture, 'inner'));
    await rm(join(fixture, 'a.txt'));
    await expect(copyFixture(fixture, join(fixture, 'inner'))).rejects.toMatchObject({
      message: `cannot copy the fixture into ${join(fixture, 'inner')}: it lies inside the fixture`,
    });
  });

  it('reports skipped entries in sorted order however deep they are', async () => {
    await writeTree(fixture, { 'b/.env': 'x', 'a/z/.env': 'x', 'a/.npmrc': 'x', 'c.pem': 'x' });
    await symlink('c.pem', join(fixture, 'a-link'));
    const { skipped } = await copyFixture(fixture, target);
    expect(skipped.map((entry) => entry.path)).toEqual(['a-link', 'a/.npmrc', 'a/z/.env', 'b/.env', 'c.pem']);
  });
});

describe('copyFixture: how it copies', () => {
  it('makes every file a file of its own: one link, its own inode, and writes to it never reach the fixture', async () => {
    const files: Record<string, string> = {};
    for (let index = 0; index < 60; index += 1) files[`d${index % 4}/e${index % 3}/f${index}.txt`] = `file ${index}\n`;
    await writeTree(fixture, files);

    const copy = await copyFixture(fixture, target);

    expect(copy.files).toBe(60);
    expect(await snapshotTree(target)).toEqual(await snapshotTree(fixture));
    const inodes = new Set<number>();
    for (const path of Object.keys(files)) {
      const original = await lstat(join(fixture, path));
      const copied = await lstat(join(target, path));
      expect(copied.nlink).toBe(1);
      expect(original.nlink).toBe(1);
      expect(copied.ino).not.toBe(original.ino);
      inodes.add(copied.ino);
    }
    expect(inodes.size).toBe(60);
    await writeFile(join(target, 'd0/e0/f0.txt'), 'changed by the agent\n');
    expect(await readFile(join(fixture, 'd0/e0/f0.txt'), 'utf8')).toBe('file 0\n');
  });

  it('gives copies exactly the fixture permission bits, whatever the umask', async () => {
    await writeTree(fixture, { 'open.txt': ['x', 0o666], 'tool.sh': ['#!/bin/sh\n', 0o775], 'dir/a.txt': 'a' });
    await chmod(join(fixture, 'open.txt'), 0o666);
    await chmod(join(fixture, 'tool.sh'), 0o775);
    await chmod(join(fixture, 'dir'), 0o777);
    const previous = process.umask(0o077);
    try {
      await copyFixture(fixture, target);
    } finally {
      process.umask(previous);
    }
    expect((await stat(join(target, 'open.txt'))).mode & 0o7777).toBe(0o666);
    expect((await stat(join(target, 'tool.sh'))).mode & 0o7777).toBe(0o775);
    expect((await stat(join(target, 'dir'))).mode & 0o7777).toBe(0o777);
  });

  it('keeps at most `concurrency` operations, and so at most twice as many open files, in flight', async () => {
    const files: Record<string, string> = {};
    for (let index = 0; index < 40; index += 1) files[`${index % 2 === 0 ? 'a' : 'b/c'}/f${index}.txt`] = `${index}`;
    await writeTree(fixture, files);
    const probe = instrumentedFs();

    const copy = await copyFixture(fixture, target, { fs: probe.fs, concurrency: 3 });

    expect(copy.files).toBe(40);
    expect(await snapshotTree(target)).toEqual(await snapshotTree(fixture));
    expect(probe.maxInFlight).toBe(3);
    expect(probe.maxCopiesInFlight).toBeLessThanOrEqual(3);
    expect(probe.inFlight).toBe(0);
  });

  it('defaults to a bound of its own and reaches it on a fixture of many directories', async () => {
    const files: Record<string, string> = {};
    // Each directory gives the copy at most DIRECTORY_LANES operations: enough of them, long enough, reach the bound.
    for (let index = 0; index < 12 * FIXTURE_COPY_CONCURRENCY; index += 1)
      files[`d${index % FIXTURE_COPY_CONCURRENCY}/f${index}.txt`] = `${index}`;

    await writeTree(fixture, files);
    const probe = instrumentedFs();
    await copyFixture(fixture, target, { fs: probe.fs });
    expect(probe.maxInFlight).toBe(FIXTURE_COPY_CONCURRENCY);
  });

  it('creates at most DIRECTORY_LANES entries in one directory at once, and copies directories alongside', async () => {
    const files: Record<string, string> = {};
    for (let index = 0; index < 30; index += 1) files[`flat/f${index}.txt`] = `${index}`;
    for (let index = 0; index < 6; index += 1) files[`nested/d${index}/f.txt`] = `${index}`;
    await writeTree(fixture, files);
    const probe = instrumentedFs();

    const copy = await copyFixture(fixture, target, { fs: probe.fs });

    expect(copy.files).toBe(36);
    expect(await snapshotTree(target)).toEqual(await snapshotTree(fixture));
    const perDirectory = Object.values(probe.maxCreationsIn);
    expect(Math.max(...perDirectory)).toBe(DIRECTORY_LANES);
    expect(probe.maxCreationsIn[join(target, 'flat')]).toBe(DIRECTORY_LANES);
    // Creations in several directories at once: more than one directory's lanes are ever in use.
    expect(probe.maxCreationsInFlight).toBeGreaterThan(DIRECTORY_LANES);
  });

  it('on a failure starts nothing more, and throws only once every operation under way has ended', async () => {
    const files: Record<string, string> = {};
    for (let index = 0; index < 50; index += 1) files[`f${String(index).padStart(2, '0')}.txt`] = `${index}`;
    await writeTree(fixture, files);
    const failure = Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
    const probe = instrumentedFs({ failCopyOf: 'f10.txt', failure });

    const outcome = copyFixture(fixture, target, { fs: probe.fs, concurrency: 4 });
    let inFlightAtRejection = -1;
    await outcome.catch(() => {
      inFlightAtRejection = probe.inFlight;
    });

    await expect(outcome).rejects.toBe(failure);
    expect(inFlightAtRejection).toBe(0);
    expect(probe.startedAfterFailure).toBe(0);
    // Four at a time: the failing one and at most three others were under way, nothing was queued anew.
    expect((await treePaths(target)).length).toBeLessThan(50);
  });
});

// Mounted only once the tests below are about to run, so that a run filtered to other tests (`-t`)
// leaves no loop mount behind.
describe('copyFixture on a copy-on-write file system', () => {
  let reflink: ReflinkMount = { mount: undefined, describe: 'not mounted yet' };
  beforeAll(async () => {
    reflink = await mountReflinkFileSystem();
  }, 60_000);
  afterAll(async () => {
    await reflink.unmount?.();
  });

  it('clones files, sharing the fixture blocks until either side writes', async (context) => {
    if (reflink.mount === undefined) return context.skip(reflink.describe);
    const base = await mkdtemp(join(reflink.mount, 'copy-'));
    const source = join(base, 'fixture');
    const clone = join(base, 'target');
    await mkdir(clone);
    await writeTree(source, { 'big.bin': 'x'.repeat(256 * 1024), 'dir/small.txt': 'small\n' });
    execFileSync('sync');

    await copyFixture(source, clone);

    expect(await sharesExtents(join(clone, 'big.bin'))).toBe(true);
    expect((await lstat(join(clone, 'big.bin'))).ino).not.toBe((await lstat(join(source, 'big.bin'))).ino);
    await writeFile(join(clone, 'big.bin'), 'rewritten');
    expect(await readFile(join(source, 'big.bin'), 'utf8')).toBe('x'.repeat(256 * 1024));
    expect(await snapshotTree(join(clone, 'dir'))).toEqual(await snapshotTree(join(source, 'dir')));
  });
});

/** An fs that counts operations in flight around the real one, each held for a turn of the event loop. */
function instrumentedFs(fault?: { failCopyOf: string; failure: Error }) {
  const probe = {
    inFlight: 0,
    maxInFlight: 0,
    copiesInFlight: 0,
    maxCopiesInFlight: 0,
    startedAfterFailure: 0,
    // Creations (copyFile, mkdir) in flight, in all and by the directory they create in.
    creationsInFlight: 0,
    maxCreationsInFlight: 0,
    creationsIn: {} as Record<string, number>,
    maxCreationsIn: {} as Record<string, number>,
  };
  let failed = false;
  const creating = (directory: string, step: 1 | -1) => {
    probe.creationsInFlight += step;
    probe.maxCreationsInFlight = Math.max(probe.maxCreationsInFlight, probe.creationsInFlight);
    const now = (probe.creationsIn[directory] ?? 0) + step;
    probe.creationsIn[directory] = now;
    probe.maxCreationsIn[directory] = Math.max(probe.maxCreationsIn[directory] ?? 0, now);
  };
  const counted =
    <A extends unknown[], R>(
      operation: (...args: A) => Promise<R>,
      isCopy = false,
      createdAt?: (...args: A) => string,
    ) =>
    async (...args: A): Promise<R> => {
      if (failed) probe.startedAfterFailure += 1;
      probe.inFlight += 1;
      probe.maxInFlight = Math.max(probe.maxInFlight, probe.inFlight);
      if (isCopy) {
        probe.copiesInFlight += 1;
        probe.maxCopiesInFlight = Math.max(probe.maxCopiesInFlight, probe.copiesInFlight);
      }
      const directory = createdAt && dirname(createdAt(...args));
      if (directory !== undefined) creating(directory, 1);
      try {
        await new Promise((resolve) => setImmediate(resolve));
        if (isCopy && fault && String(args[0]).endsWith(`/${fault.failCopyOf}`)) {
          failed = true;
          throw fault.failure;
        }
        return await operation(...args);
      } finally {
        probe.inFlight -= 1;
        if (isCopy) probe.copiesInFlight -= 1;
        if (directory !== undefined) creating(directory, -1);
      }
    };
  // The fixture's metadata is read synchronously: never in flight, but counted after a failure.
  const read =
    <A extends unknown[], R>(operation: (...args: A) => R) =>
    (...args: A): R => {
      if (failed) probe.startedAfterFailure += 1;
      return operation(...args);
    };
  const fs: FixtureFs = {
    lstatSync: read((path: string) => lstatSync(path)),
    readdirSync: read((path: string) => readdirSync(path)),
    mkdir: counted(
      (path: string, options: { mode: number }) => mkdir(path, options),
      false,
      (path) => path,
    ),
    copyFile: counted(
      (from: string, to: string, mode: number) => copyFile(from, to, mode),
      true,
      (_from, to) => to,
    ),
    chmod: counted((path: string, mode: number) => chmod(path, mode)),
  };
  return Object.assign(probe, { fs });
}

describe('isSecretPath', () => {
  it.each([
    ['.env', false, true],
    ['.ENV', false, true],
    ['.env.local', false, true],
    ['.env.example', false, false],
    ['.env.Example', false, false],
    ['deep/.env.staging', false, true],
    ['server.pem', false, true],
    ['tls/server.key', false, true],
    ['keystore.jks', false, true],
    ['id_rsa', false, true],
    ['id_rsa.pub', false, false],
    ['id_ed25519_sk', false, true],
    ['.ssh', true, true],
    ['.ssh', false, false],
    ['nested/.aws', true, true],
    ['.docker', true, false],
    ['.docker/config.json', false, true],
    ['app/.docker/config.json', false, true],
    ['docker/config.json', false, false],
    ['.kube/config', false, true],
    ['config.json', false, false],
    ['credentials.js', false, false],
    ['keys', true, false],
    ['monkey.js', false, false],
  ])('%s (directory: %s) → %s', (path, isDirectory, expected) => {
    expect(isSecretPath(path, isDirectory)).toBe(expected);
  });
});
