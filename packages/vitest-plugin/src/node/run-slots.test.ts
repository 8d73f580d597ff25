import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireSlot } from '../runtime/slot-client.js';
import { EnvironmentError } from './environment-error.js';
import { openAbstractSlots, openSlotsInOwnedDir } from './run-slots.js';

let parent: string;
beforeEach(async () => {
  parent = await mkdtemp(join(tmpdir(), 'gz-bench-run-slots-test-'));
});
afterEach(async () => {
  await rm(parent, { recursive: true, force: true });
});

/**
 * The abstract Unix sockets listening now, as /proc/net/unix lists them (`@name`, NULs shown as `@`):
 * Node pads an abstract name with NULs to the whole of sun_path, which are cut off here.
 */
async function abstractSockets(): Promise<string[]> {
  const table = await readFile('/proc/net/unix', 'utf8');
  return (
    table
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      // Flags 00010000: accepting connections (the server's socket; its connections carry its name too).
      .filter((fields) => fields[3] === '00010000' && fields[7]?.startsWith('@') === true)
      .map((fields) => (fields[7] ?? '').replace(/@+$/, ''))
  );
}

describe.runIf(process.platform === 'linux')('openAbstractSlots', () => {
  it('listens on an abstract socket named after this process, which no file backs, until closed', async () => {
    const opened = await openAbstractSlots({ total: 1 });
    const name = `@${opened.address.path.slice(1)}`;
    expect(opened.address.path.startsWith(`\0gz-bench-slots-${process.pid}-`)).toBe(true);
    expect(await abstractSockets()).toContain(name);
    const slot = await acquireSlot(opened.address.path, { token: opened.address.token });
    expect(opened.server.held).toBe(1);
    slot.release();
    await expect(acquireSlot(opened.address.path)).rejects.toThrow('wrong token');
    await opened.close();
    expect(await abstractSockets()).not.toContain(name);
  });
});

describe('openSlotsInOwnedDir', () => {
  it('listens in a private directory named after this process, removed when closed', async () => {
    const opened = await openSlotsInOwnedDir({ total: 1 }, parent);
    const [dir, ...others] = await readdir(parent);
    expect(others).toEqual([]);
    expect(dir).toMatch(new RegExp(`^gz-bench-slots-${process.pid}-\\d+-\\w{6}$`));
    expect((await stat(join(parent, dir as string))).mode & 0o777).toBe(0o700);
    expect(opened.address.path).toBe(join(parent, dir as string, 'slots.sock'));
    const slot = await acquireSlot(opened.address.path, { token: opened.address.token });
    slot.release();
    await opened.close();
    expect(await readdir(parent)).toEqual([]);
  });

  it('refuses a temp dir whose path is too long for a socket, in one line, and leaves nothing', async () => {
    const deep = join(parent, 'd'.repeat(80));
    await import('node:fs/promises').then((fs) => fs.mkdir(deep));
    const opening = openSlotsInOwnedDir({ total: 1 }, deep);
    await expect(opening).rejects.toBeInstanceOf(EnvironmentError);
    await expect(opening).rejects.toThrow(
      new RegExp(
        `^gz-bench: the temp directory ${deep} \\(TMPDIR\\) has too long a path for the run's socket \\(\\d+ bytes with its name, at most 103\\); point TMPDIR at a shorter path$`,
      ),
    );
    expect(await readdir(deep)).toEqual([]);
  });
});
