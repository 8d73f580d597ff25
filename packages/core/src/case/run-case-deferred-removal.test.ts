import { mkdtemp, readdir, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Case } from '../suite/schema.js';
import { settleDeferredRemovals } from '../workspace/deferred-removal.js';
import { removeTree } from '../workspace/remove-tree.js';
import { runCase } from './run-case.js';

// A case run with deferRemoval resolves once its processes are dead; its area goes as the process's
// next command starts, or when the caller settles the removals.

const trivial: Case = { id: 'c', prompt: 'p', checks: [{ kind: 'fileContains', path: 'out.txt', text: 'hi' }] };

let parent: string;
beforeEach(async () => {
  parent = await realpath(await mkdtemp(join(tmpdir(), 'gzb-deferred-')));
});
afterEach(async () => {
  await settleDeferredRemovals();
  await removeTree(parent);
});

const areas = async (): Promise<string[]> => (await readdir(parent)).filter((name) => name.startsWith('gz-bench-'));

describe('runCase with deferRemoval', () => {
  it('leaves the area until the next command starts, which removes it while it runs', async () => {
    const first = await runCase(trivial, { cmd: 'echo hi > out.txt', tmpDir: parent, deferRemoval: true });
    expect(first).toMatchObject({ passed: true });
    expect(await areas()).toHaveLength(1);
    const [left] = await areas();
    const second = await runCase(trivial, { cmd: 'echo hi > out.txt', tmpDir: parent, deferRemoval: true });
    expect(second).toMatchObject({ passed: true });
    // The first area went as the second case's first command started; the second is left in its turn.
    const now = await areas();
    expect(now).toHaveLength(1);
    expect(now).not.toContain(left);
    expect(await settleDeferredRemovals()).toEqual([]);
    expect(await areas()).toEqual([]);
  });

  it('removes at once without it, as ever', async () => {
    await runCase(trivial, { cmd: 'echo hi > out.txt', tmpDir: parent });
    expect(await areas()).toEqual([]);
  });

  it('removes what an agent made hard to remove when settled', async () => {
    // A directory of mode 000 deep in the workspace: the removal falls back to chmod and rm.
    const result = await runCase(trivial, {
      cmd: 'echo hi > out.txt && mkdir -p a/b/c && touch a/b/c/f && chmod 000 a/b',
      tmpDir: parent,
      deferRemoval: true,
    });
    expect(result).toMatchObject({ passed: true });
    expect(await settleDeferredRemovals()).toEqual([]);
    expect(await areas()).toEqual([]);
  });
});
