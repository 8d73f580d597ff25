import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, realpath, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GUARDIAN_NAME } from '../process/guardian.js';
import { CASE_TOKEN_ENV, killByToken, newCaseToken } from '../process/sweep.js';
import { compileForChild } from '../process/test-support/child-modules.js';
import { deadPid, isRunning, killStrays } from '../process/test-support/processes.js';
import { CASE_AREA_PREFIX, createCaseArea, removeCaseArea } from './case-area.js';
import { KEPT_FILE, OWNER_FILE, type OwnerRecord } from './owner-record.js';
import { removeTree } from './remove-tree.js';
import { cleanStaleAreas, ownerIsRunning } from './stale-areas.js';

const linux = process.platform === 'linux';

let parent: string;
let modules: Awaited<ReturnType<typeof compileForChild>>;
const tokens: string[] = [];
const strays: number[] = [];
const children: ChildProcess[] = [];

beforeAll(async () => {
  modules = await compileForChild([
    'workspace/case-area.ts',
    'workspace/owner-record.ts',
    'workspace/area-files.ts',
    'workspace/owned-dirs.ts',
    'workspace/remove-tree.ts',
    'workspace/stale-areas.ts',
    'process/guardian.ts',
    'process/guardian-protocol.ts',
    'process/guardian-script.ts',
    'process/sweep.ts',
    'process/proc-stat.ts',
    'process/proc-read.ts',
    'process/exit-cleanup.ts',
    'process/kill-tree.ts',
  ]);
  // A harness that creates an area, starts a token-carrying daemon in it, reports both, and waits to die.
  await writeFile(
    join(modules.dir, 'harness.mjs'),
    `import { spawn } from 'node:child_process';
import { CASE_TOKEN_ENV } from './process/sweep.js';
import { createCaseArea } from './workspace/case-area.js';
const [parent, token] = process.argv.slice(2);
const area = await createCaseArea({ parent, token });
const daemon = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30);'], {
  cwd: area.workspace,
  env: { [CASE_TOKEN_ENV]: token, HOME: area.home, TMPDIR: area.tmp },
  detached: true,
  stdio: 'ignore',
});
daemon.unref();
process.stdout.write(JSON.stringify({ root: area.root, daemon: daemon.pid }) + '\\n');
setInterval(() => {}, 1 << 30);
`,
  );
  await writeFile(
    join(modules.dir, 'clean.mjs'),
    `import { cleanStaleAreas } from './workspace/stale-areas.js';
process.stdout.write(JSON.stringify(await cleanStaleAreas(process.argv[2])));
`,
  );
});

afterAll(() => modules?.dispose());

beforeEach(async () => {
  parent = await realpath(await mkdtemp(join(tmpdir(), 'gzb-stale-test-')));
});

afterEach(async () => {
  killStrays(strays);
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const token of tokens.splice(0)) await killByToken(token);
  await removeTree(parent);
});

/** Starts the child harness, waits for its report, then SIGKILLs it so no cleanup handler runs. */
async function harnessKilledMidCase(): Promise<{ root: string; daemon: number; token: string }> {
  const token = newCaseToken();
  tokens.push(token);
  const child = spawn(process.execPath, [join(modules.dir, 'harness.mjs'), parent, token], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  const report = JSON.parse(line) as { root: string; daemon: number };
  strays.push(report.daemon);
  // Its guardian first, as if both had been killed at once: what is left is the next run's to clean.
  for (const guardian of guardiansOf(child.pid as number)) process.kill(guardian, 'SIGKILL');
  child.kill('SIGKILL');
  await once(child, 'exit');
  return { ...report, token };
}

/** The guardian processes among the children of `pid`. */
function guardiansOf(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`)
    .flatMap((task) => readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean))
    .map(Number)
    .filter((child) => readFileSync(`/proc/${child}/cmdline`, 'utf8').includes(GUARDIAN_NAME));
}

/** A hand-written area, as another harness would leave it. */
async function fakeArea(name: string, owner: Partial<OwnerRecord> | string | undefined): Promise<string> {
  const root = join(parent, name);
  await mkdir(join(root, 'workspace'), { recursive: true });
  await writeFile(join(root, 'workspace', 'file'), 'x');
  if (owner !== undefined) {
    const record = { startTime: 0, token: newCaseToken(), created: new Date().toISOString(), ...(owner as object) };
    await writeFile(join(root, OWNER_FILE), typeof owner === 'string' ? owner : JSON.stringify(record));
  }
  return root;
}

describe.runIf(linux)('cleanStaleAreas', () => {
  it('removes the area of a SIGKILLed harness and kills its daemon; a live owner is untouched', async () => {
    const live = await createCaseArea({ parent, token: newCaseToken() });
    const liveSleeper = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30);'], {
      env: { [CASE_TOKEN_ENV]: live.token },
      stdio: 'ignore',
    });
    children.push(liveSleeper);
    tokens.push(live.token);
    const stale = await harnessKilledMidCase();
    expect(existsSync(stale.root)).toBe(true);
    expect(isRunning(stale.daemon)).toBe(true);

    const result = await cleanStaleAreas(parent);
    expect(result).toEqual({ removed: [stale.root], killed: [stale.daemon], failed: [] });
    expect(existsSync(stale.root)).toBe(false);
    expect(isRunning(stale.daemon)).toBe(false);
    expect(existsSync(live.workspace)).toBe(true);
    expect(isRunning(liveSleeper.pid as number)).toBe(true);
    await removeCaseArea(live);
  }, 20_000);

  it('treats a reused pid (same pid, other start time) as a dead owner', async () => {
    const root = await fakeArea(`${CASE_AREA_PREFIX}reused`, { pid: process.pid, startTime: 1 });
    expect(await cleanStaleAreas(parent)).toEqual({ removed: [root], killed: [], failed: [] });
  });

  it('removes a stale area the agent locked down', async () => {
    const root = await fakeArea(`${CASE_AREA_PREFIX}locked`, { pid: deadPid() });
    await chmod(join(root, 'workspace'), 0);
    expect((await cleanStaleAreas(parent)).removed).toEqual([root]);
  });

  it('leaves alone what it cannot prove stale, or is not an area', async () => {
    const kept = [
      await fakeArea(`${CASE_AREA_PREFIX}no-owner`, undefined),
      await fakeArea(`${CASE_AREA_PREFIX}bad-json`, '{ "pid": '),
      await fakeArea(`${CASE_AREA_PREFIX}bad-token`, { pid: deadPid(), token: 'abc' }),
      await fakeArea(`${CASE_AREA_PREFIX}live`, { pid: process.pid, startTime: ownStartTimeTicks() }),
      await fakeArea('not-gz-bench-dead', { pid: deadPid() }),
    ];
    // A symlink named like an area, to a stale-looking area elsewhere, and an owner.json that is a link.
    const elsewhere = await fakeArea('elsewhere', { pid: deadPid() });
    await symlink(elsewhere, join(parent, `${CASE_AREA_PREFIX}link`));
    const linkedOwner = await fakeArea(`${CASE_AREA_PREFIX}linked-owner`, undefined);
    await symlink(join(elsewhere, OWNER_FILE), join(linkedOwner, OWNER_FILE));

    expect(await cleanStaleAreas(parent)).toEqual({ removed: [], killed: [], failed: [] });
    for (const root of [...kept, elsewhere, linkedOwner])
      expect(existsSync(join(root, 'workspace', 'file'))).toBe(true);
  });

  it('removes an area whose harness died before writing owner.json, and the cache, slot and tool-server dirs of a dead run', async () => {
    const dead = deadPid();
    const unfinished = await fakeArea(`${CASE_AREA_PREFIX}${dead}-12345-AbC123`, undefined);
    const cache = await fakeArea(`gz-bench-cache-${dead}-12345-XyZ789`, undefined);
    const slots = await fakeArea(`gz-bench-slots-${dead}-12345-SlOt42`, undefined);
    const tools = await fakeArea(`gz-bench-tools-${dead}-12345-T0ols1`, undefined);
    const result = await cleanStaleAreas(parent);
    expect(result.removed.sort()).toEqual([unfinished, cache, slots, tools].sort());
    expect(await readdir(parent)).toEqual([]);
  });

  it('never removes a kept area, nor a directory of a live owner, nor a name it did not make', async () => {
    const dead = deadPid();
    const live = `${process.pid}-${ownStartTimeTicks()}`;
    const kept = await fakeArea(`${CASE_AREA_PREFIX}${dead}-1-Kept01`, undefined);
    await writeFile(join(kept, KEPT_FILE), '{}');
    const keptOlder = await fakeArea(`${CASE_AREA_PREFIX}AbCd12`, { pid: dead });
    await writeFile(join(keptOlder, KEPT_FILE), '{}');
    const survivors = [
      kept,
      keptOlder,
      await fakeArea(`${CASE_AREA_PREFIX}${live}-Live01`, undefined),
      await fakeArea(`gz-bench-cache-${live}-Live02`, undefined),
      await fakeArea(`gz-bench-slots-${live}-Live03`, undefined),
      await fakeArea(`gz-bench-tools-${live}-Live04`, undefined),
      // Shaped almost like ours: a user's own directories.
      await fakeArea('gz-bench-backup', undefined),
      await fakeArea(`gz-bench-${dead}-1-toolong7`, undefined),
      await fakeArea(`gz-bench-test-${dead}-1-AbC123`, undefined),
    ];
    expect(await cleanStaleAreas(parent)).toEqual({ removed: [], killed: [], failed: [] });
    for (const root of survivors) expect(existsSync(join(root, 'workspace', 'file'))).toBe(true);
  });

  it('judges an area by the owner in its name, whatever its owner.json says', async () => {
    const dead = deadPid();
    // The agent of a live harness forged a dead owner, and one of a dead harness a live owner.
    const forgedDead = await fakeArea(`${CASE_AREA_PREFIX}${process.pid}-${ownStartTimeTicks()}-Forge1`, { pid: dead });
    const forgedLive = await fakeArea(`${CASE_AREA_PREFIX}${dead}-1-Forge2`, {
      pid: process.pid,
      startTime: ownStartTimeTicks(),
    });
    expect(await cleanStaleAreas(parent)).toEqual({ removed: [forgedLive], killed: [], failed: [] });
    expect(existsSync(forgedDead)).toBe(true);
  });

  it.runIf(process.getuid?.() === 0)(
    'lists a stale area it cannot remove, and goes on with the others',
    async () => {
      // As nobody: an area holding a root-owned directory with a file in it cannot be emptied.
      const dead = deadPid();
      const stuck = await fakeArea(`${CASE_AREA_PREFIX}${dead}-1-Stuck1`, undefined);
      await mkdir(join(stuck, 'workspace', 'roots'));
      await writeFile(join(stuck, 'workspace', 'roots', 'file'), 'x');
      const removable = await fakeArea(`${CASE_AREA_PREFIX}${dead}-1-Gone01`, undefined);
      for (const root of [stuck, removable]) {
        await promisify(execFile)('chown', ['nobody:', root, join(root, 'workspace'), join(root, 'workspace', 'file')]);
      }
      await chmod(parent, 0o755);
      await promisify(execFile)('chown', ['nobody:', parent]);
      const { stdout } = await promisify(execFile)(process.execPath, [join(modules.dir, 'clean.mjs'), parent], {
        uid: 65534,
        gid: 65534,
        cwd: '/',
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      });
      const result = JSON.parse(stdout) as { removed: string[]; failed: Array<{ path: string; reason: string }> };
      expect(result.removed).toEqual([removable]);
      expect(result.failed).toEqual([{ path: stuck, reason: expect.stringContaining('Permission denied') }]);
      expect(existsSync(join(stuck, 'workspace', 'roots', 'file'))).toBe(true);
    },
    20_000,
  );

  it('is safe to run concurrently, in one process and across processes', async () => {
    const stale = await Promise.all([harnessKilledMidCase(), harnessKilledMidCase()]);
    const dead = await fakeArea(`${CASE_AREA_PREFIX}dead`, { pid: deadPid() });
    const inChild = promisify(execFile)(process.execPath, [join(modules.dir, 'clean.mjs'), parent]);
    const results = await Promise.all([cleanStaleAreas(parent), cleanStaleAreas(parent)]);
    const childResult = JSON.parse((await inChild).stdout) as { removed: string[]; killed: number[] };

    const removed = new Set([...results.flatMap((result) => result.removed), ...childResult.removed]);
    expect([...removed].sort()).toEqual([...stale.map((area) => area.root), dead].sort());
    expect(await readdir(parent)).toEqual([]);
    for (const { daemon } of stale) expect(isRunning(daemon)).toBe(false);
  }, 30_000);

  it('returns nothing for a parent that does not exist', async () => {
    expect(await cleanStaleAreas(join(parent, 'missing'))).toEqual({ removed: [], killed: [], failed: [] });
  });
});

describe('ownerIsRunning', () => {
  it('is true for this process and false for an exited one or a reused pid', async () => {
    expect(await ownerIsRunning({ pid: process.pid, startTime: ownStartTimeTicks() })).toBe(true);
    expect(await ownerIsRunning({ pid: deadPid(), startTime: 0 })).toBe(false);
    if (linux) expect(await ownerIsRunning({ pid: process.pid, startTime: ownStartTimeTicks() + 1 })).toBe(false);
  });
});

function ownStartTimeTicks(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
}
