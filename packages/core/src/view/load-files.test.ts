import * as fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { loadViewFiles } from './load-files.js';

describe('loadViewFiles', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(join(tmpdir(), 'gz-view-files-'));
    await fs.writeFile(
      join(dir, 'big.diff'),
      Array.from({ length: 100 }, (_, i) => `+line ${i} ${'é'.repeat(20)}\n`).join(''),
    );
    await fs.writeFile(join(dir, 'small.diff'), '--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n');
    await fs.writeFile(
      join(dir, 'trajectory.json'),
      JSON.stringify({ steps: [{ step_id: 1, source: 'user', message: 'hi' }] }),
    );
    await fs.writeFile(join(dir, 'broken.json'), '{');
  });
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));
  const resolvePath = (path: string) => join(dir, path);

  it('embeds the head of a diff cut at a line end, and says it was cut', async ({ expect }) => {
    const files = await loadViewFiles(fs, [{ passed: false, changes: { file: 'big.diff' } }], resolvePath, {
      perFile: 1000,
    });
    const diff = files.get(0)?.diff;
    expect(diff && 'text' in diff && diff.cut).toBe(true);
    const text = diff && 'text' in diff ? diff.text : '';
    expect(text.length).toBeLessThanOrEqual(1000);
    expect(text.endsWith('\n')).toBe(true);
    expect(text).not.toContain('\ufffd');
    expect(diff && 'fileBytes' in diff && diff.fileBytes).toBe((await fs.stat(join(dir, 'big.diff'))).size);
  });

  it('reads a trajectory, and notes files that are missing or not JSON', async ({ expect }) => {
    const files = await loadViewFiles(
      fs,
      [
        { trajectory: { file: 'trajectory.json' }, changes: { file: 'small.diff' } },
        { trajectory: { file: 'broken.json' }, changes: { file: 'nope.diff' } },
        { id: 'without files' },
      ],
      resolvePath,
    );
    expect(files.get(0)?.trajectory).toMatchObject({ steps: [{ id: 1, source: 'user', text: 'hi' }], omittedSteps: 0 });
    expect(files.get(0)?.diff).toMatchObject({ cut: false, text: expect.stringContaining('+b') });
    expect(files.get(1)).toEqual({
      trajectory: { missing: 'not embedded: the file is not valid JSON' },
      diff: { missing: 'not embedded: the file does not exist' },
    });
    expect(files.has(2)).toBe(false);
  });

  it('spends its total budget on failing rows first', async ({ expect }) => {
    const row = (passed: boolean) => ({ passed, changes: { file: 'big.diff' } });
    const files = await loadViewFiles(fs, [row(true), row(false)], resolvePath, { perFile: 3000, total: 3000 });
    expect(files.get(1)?.diff).toHaveProperty('text');
    expect(files.get(0)?.diff).toEqual({
      missing: expect.stringMatching(/^not embedded: the page's 3 KiB for excerpts were spent/),
    });
  });
});
