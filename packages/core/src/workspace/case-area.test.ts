import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import {
  chmod,
  chown,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rename,
  rm,
  rmdir,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { newCaseToken } from '../process/sweep.js';
import { compileForChild } from '../process/test-support/child-modules.js';
import {
  assertWorkspaceIntact,
  CASE_AREA_PREFIX,
  type CaseArea,
  createCaseArea,
  releaseCaseArea,
  removeCaseArea,
} from './case-area.js';
import { parseOwnedDirName } from './owned-dirs.js';
import { KEPT_FILE, OWNER_FILE } from './owner-record.js';
import { removeTree } from './remove-tree.js';

const run = promisify(execFile);
const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;

let parent: string;
let outside: string;

beforeEach(async () => {
  parent = await realpath(await mkdtemp(join(tmpdir(), 'gzb-area-test-')));
  outside = await realpath(await mkdtemp(join(tmpdir(), 'gzb-area-outside-')));
});

afterEach(async () => {
  // Tests chmod things to 000: removeTree gives access back, so cleanup also works for a non-root user.
  for (const dir of [parent, outside]) await removeTree(dir);
});

async function modeOf(path: string): Promise<number> {
  return (await lstat(path)).mode & 0o7777;
}

describe('createCaseArea', () => {
  it('creates workspace, home and tmp, and an owner record naming this process', async () => {
    const token = newCaseToken();
    const area = await createCaseArea({ parent, token });
    expect(area.root.startsWith(join(parent, CASE_AREA_PREFIX))).toBe(true);
    expect(area).toEqual({
      root: area.root,
      workspace: join(area.root, 'workspace'),
      home: join(area.root, 'home'),
      tmp: join(area.root, 'tmp'),
      promptFile: join(area.root, 'prompt.txt'),
      token,
    });
    for (const dir of [area.workspace, area.home, area.tmp]) expect((await lstat(dir)).isDirectory()).toBe(true);
    expect((await readdir(area.root)).sort()).toEqual(['home', OWNER_FILE, 'tmp', 'workspace']);
    expect(await modeOf(area.root)).toBe(0o700);

    const owner = JSON.parse(await readFile(join(area.root, OWNER_FILE), 'utf8'));
    expect(owner).toEqual({ pid: process.pid, startTime: expect.any(Number), token, created: expect.any(String) });
    expect(new Date(owner.created).toISOString()).toBe(owner.created);
    if (process.platform === 'linux') {
      const stat = readFileSync('/proc/self/stat', 'utf8');
      expect(owner.startTime).toBe(Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]));
    }
    // The name says the same from the first moment, before owner.json exists.
    expect(parseOwnedDirName(basename(area.root))).toEqual({
      kind: 'area',
      pid: process.pid,
      startTime: owner.startTime,
    });
    await removeCaseArea(area);
  });

  it('returns real paths when the parent is reached through a symlink', async () => {
    const link = join(outside, 'link');
    await symlink(parent, link);
    const area = await createCaseArea({ parent: link, token: newCaseToken() });
    expect(area.root.startsWith(`${parent}/`)).toBe(true);
    await removeCaseArea(area);
  });

  it('makes a token when none is given, and refuses a malformed one', async () => {
    const area = await createCaseArea({ parent } as { parent: string; token: string });
    expect(area.token).toMatch(/^[0-9a-f]{32}$/);
    await removeCaseArea(area);
    await expect(createCaseArea({ parent, token: 'x' })).rejects.toThrow(TypeError);
    expect(await readdir(parent)).toEqual([]);
  });
});

describe('removeCaseArea', () => {
  let area: CaseArea;
  beforeEach(async () => {
    area = await createCaseArea({ parent, token: newCaseToken() });
  });

  it('removes nested directories and files the agent made inaccessible, the workspace itself included', async () => {
    const deep = join(area.workspace, 'a', 'b', 'c');
    await mkdir(deep, { recursive: true });
    await writeFile(join(deep, 'secret'), 'x', { mode: 0 });
    await writeFile(join(area.home, 'locked'), 'x');
    await chmod(join(area.home, 'locked'), 0);
    for (const dir of [deep, join(area.workspace, 'a', 'b'), join(area.workspace, 'a'), area.workspace, area.tmp]) {
      await chmod(dir, 0);
    }
    await removeCaseArea(area);
    expect(existsSync(area.root)).toBe(false);
  });

  it('removes a workspace replaced by a symlink as a link, leaving the target and its contents alone', async () => {
    await writeFile(join(outside, 'keep.txt'), 'precious');
    await chmod(outside, 0o555);
    await rmdir(area.workspace);
    await symlink(outside, area.workspace);
    await removeCaseArea(area);
    expect(existsSync(area.root)).toBe(false);
    expect(await readFile(join(outside, 'keep.txt'), 'utf8')).toBe('precious');
    expect(await modeOf(outside)).toBe(0o555);
  });

  it('removes many files', async () => {
    for (let d = 0; d < 10; d++) {
      const sub = join(area.workspace, `d${d}`);
      await mkdir(sub);
      await Promise.all(Array.from({ length: 200 }, (_, f) => writeFile(join(sub, `f${f}`), '', { mode: 0 })));
    }
    await chmod(join(area.workspace, 'd0'), 0);
    await removeCaseArea(area);
    expect(existsSync(area.root)).toBe(false);
  }, 30_000);

  it('is a no-op for an area that is already gone', async () => {
    await rm(area.root, { recursive: true });
    await expect(removeCaseArea(area)).resolves.toBeUndefined();
  });
});

describe('releaseCaseArea', () => {
  it('keeps the area, marked kept for cleanStaleAreas, without an owner record', async () => {
    const area = await createCaseArea({ parent, token: newCaseToken() });
    await releaseCaseArea(area);
    expect((await readdir(area.root)).sort()).toEqual(['home', KEPT_FILE, 'tmp', 'workspace']);
    expect(JSON.parse(await readFile(join(area.root, KEPT_FILE), 'utf8'))).toEqual({ kept: expect.any(String) });
  });

  it('writes no mark through an area the agent replaced by a symlink', async () => {
    const area = await createCaseArea({ parent, token: newCaseToken() });
    await rm(area.root, { recursive: true });
    await symlink(outside, area.root);
    await releaseCaseArea(area);
    expect(await readdir(outside)).toEqual([]);
  });
});

describe('assertWorkspaceIntact', () => {
  let area: CaseArea;
  beforeEach(async () => {
    area = await createCaseArea({ parent, token: newCaseToken() });
  });
  afterEach(() => removeCaseArea(area));

  it('accepts a real directory, whatever its mode', async () => {
    expect(await assertWorkspaceIntact(area)).toBeUndefined();
    await chmod(area.workspace, 0);
    expect(await assertWorkspaceIntact(area)).toBeUndefined();
  });

  it('reports a workspace replaced by a symlink, removed, or replaced by a file', async () => {
    await rmdir(area.workspace);
    expect(await assertWorkspaceIntact(area)).toBe('the agent removed the workspace');
    await writeFile(area.workspace, 'not a dir');
    expect(await assertWorkspaceIntact(area)).toBe('the agent replaced the workspace with a file');
    await rm(area.workspace);
    await symlink(outside, area.workspace);
    expect(await assertWorkspaceIntact(area)).toBe('the agent replaced the workspace with a symlink');
  });

  it('reports a case area that was moved away or replaced', async () => {
    const moved = `${area.root}-moved`;
    await rename(area.root, moved);
    expect(await assertWorkspaceIntact(area)).toBe('the agent removed the case area');
    await symlink(moved, area.root);
    expect(await assertWorkspaceIntact(area)).toBe('the agent replaced the case area');
    await rm(area.root);
    await rename(moved, area.root);
  });
});

describe('in a child process', () => {
  let modules: Awaited<ReturnType<typeof compileForChild>>;
  beforeAll(async () => {
    modules = await compileForChild([
      'workspace/case-area.ts',
      'workspace/owner-record.ts',
      'workspace/area-files.ts',
      'workspace/owned-dirs.ts',
      'workspace/remove-tree.ts',
      'process/guardian.ts',
      'process/guardian-protocol.ts',
      'process/guardian-script.ts',
      'process/sweep.ts',
      'process/proc-stat.ts',
      'process/proc-read.ts',
      'process/exit-cleanup.ts',
      'process/kill-tree.ts',
    ]);
    await writeFile(
      join(modules.dir, 'exit-early.mjs'),
      `import { createCaseArea, releaseCaseArea } from './workspace/case-area.js';
const area = await createCaseArea({ parent: process.argv[2] });
const kept = await createCaseArea({ parent: process.argv[2] });
await releaseCaseArea(kept);
process.stdout.write(JSON.stringify([area.root, kept.root]));
process.exit(0);
`,
    );
    // What an agent running as an ordinary user can do, then removal by that same user.
    await writeFile(
      join(modules.dir, 'lock-and-remove.mjs'),
      `import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { createCaseArea, removeCaseArea } from './workspace/case-area.js';
const area = await createCaseArea({ parent: process.argv[2] });
const deep = join(area.workspace, 'a', 'b');
await mkdir(deep, { recursive: true });
await writeFile(join(deep, 'file'), 'x', { mode: 0 });
for (const dir of [deep, join(area.workspace, 'a'), area.workspace, area.home]) await chmod(dir, 0);
// A plain recursive rm must fail here, or this test would not exercise the fallback.
const plainRm = await rm(join(area.workspace, 'a'), { recursive: true, force: true }).then(() => 'removed', (error) => error.code);
await removeCaseArea(area);
process.stdout.write(JSON.stringify({ uid: process.getuid(), plainRm, left: existsSync(area.root) }));
`,
    );
  });
  afterAll(() => modules?.dispose());

  it('removes the area when the harness process exits without removing it, unless released', async () => {
    const { stdout } = await run(process.execPath, [join(modules.dir, 'exit-early.mjs'), parent]);
    const [removed, kept] = JSON.parse(stdout) as [string, string];
    expect(removed.startsWith(join(parent, CASE_AREA_PREFIX))).toBe(true);
    expect(existsSync(removed)).toBe(false);
    expect(existsSync(join(kept, 'workspace'))).toBe(true);
  }, 20_000);

  // As root every chmod 000 is moot; run the agent's mischief and the removal as an ordinary user.
  it.runIf(isRoot)(
    'removes directories of mode 000 as a non-root user',
    async () => {
      const userParent = join(parent, 'nobody');
      await mkdir(userParent);
      await chown(userParent, NOBODY, NOBODY);
      await chmod(parent, 0o755);
      const { stdout } = await run(process.execPath, [join(modules.dir, 'lock-and-remove.mjs'), userParent], {
        uid: NOBODY,
        gid: NOBODY,
        cwd: '/',
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      });
      expect(JSON.parse(stdout)).toEqual({ uid: NOBODY, plainRm: 'EACCES', left: false });
      expect(await readdir(userParent)).toEqual([]);
      expect((await stat(userParent)).uid).toBe(NOBODY);
    },
    20_000,
  );
});
