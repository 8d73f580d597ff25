import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createGzBenchPlugin } from './plugin.js';
import { resolveOptions } from './resolve-options.js';
import {
  dataVersionOf,
  generateSuiteDataModule,
  SuiteDataModules,
  suiteDataId,
  suiteVersion,
} from './suite-data-module.js';

const data = {
  suite: { name: 's', cases: [{ id: 'a', prompt: 'say "hi" </script> \u2028', checks: [] }] },
  file: '/p/s.bench.json',
  locations: [],
} as unknown as Parameters<typeof generateSuiteDataModule>[0];

describe('the data module of a suite', () => {
  it('holds the data as one string literal, exactly, with an empty source map', async () => {
    const module = generateSuiteDataModule(data);
    expect(module.code).toMatch(/^export default JSON\.parse\("(?:[^"\\]|\\.)*"\);\n$/);
    // Vite keeps an empty map as it is, rather than mapping every word of the data.
    expect(module.map).toEqual({ mappings: '' });
    const imported = await import(`data:text/javascript,${encodeURIComponent(module.code)}`);
    expect(imported.default).toEqual(data);
  });

  it('is named by the suite file and the version of its text', () => {
    const version = suiteVersion('{"name":"s"}');
    expect(version).not.toBe(suiteVersion('{"name":"t"}'));
    expect(dataVersionOf(suiteDataId('/p/s.bench.json', version))).toBe(version);
    expect(dataVersionOf('/p/s.bench.json')).toBeUndefined();
    expect(dataVersionOf('/p/s.bench.json?import')).toBeUndefined();
  });

  it('is handed over once, and only at the version it was made from', () => {
    const modules = new SuiteDataModules();
    const module = generateSuiteDataModule(data);
    modules.remember('/p/s.bench.json', 'v1', module);
    expect(modules.take('/p/s.bench.json', 'v2')).toBeUndefined();
    expect(modules.take('/p/s.bench.json', 'v1')).toBe(module);
    expect(modules.take('/p/s.bench.json', 'v1')).toBeUndefined();
  });
});

describe("the plugin's load hook", () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function pluginOn(root: string) {
    const plugin = createGzBenchPlugin(resolveOptions({}, {}));
    (plugin.configResolved as (config: unknown) => void)({ root, plugins: [] });
    const context = { addWatchFile() {} };
    return (id: string) =>
      (plugin.load as (this: unknown, id: string) => Promise<{ code: string } | null>).call(context, id);
  }

  const suiteText = (prompt: string) =>
    JSON.stringify({ name: 's', cases: [{ id: 'a', prompt, checks: [{ kind: 'fileExists', path: 'x' }] }] });

  it("serves a test module that holds no case's data, and the data by the id it imports", async () => {
    dir = await mkdtemp(join(tmpdir(), 'gz-bench-data-'));
    const file = join(dir, 's.bench.json');
    const prompt = 'p'.repeat(100_000);
    await writeFile(file, suiteText(prompt));
    const load = await pluginOn(dir);
    const test = await load(file);
    // However much the cases hold, their test module is a line per case.
    expect(test?.code).not.toContain('ppp');
    expect(test?.code.length).toBeLessThan(2000);
    const dataId = /^import data from (".*");$/m.exec(test?.code ?? '')?.[1];
    expect(dataId).toBeDefined();
    const served = await load(JSON.parse(dataId ?? '""'));
    const imported = await import(`data:text/javascript,${encodeURIComponent(served?.code ?? '')}`);
    expect(imported.default.suite.cases[0].prompt).toBe(prompt);
    // Asked again (another project's worker), it is made anew from the file.
    expect((await load(JSON.parse(dataId ?? '""')))?.code).toBe(served?.code);
  });

  it('refuses data of another version than its test module, when the file changed in between', async () => {
    dir = await mkdtemp(join(tmpdir(), 'gz-bench-data-'));
    const file = join(dir, 's.bench.json');
    await writeFile(file, suiteText('first'));
    const load = await pluginOn(dir);
    const dataId = JSON.parse(/^import data from (".*");$/m.exec((await load(file))?.code ?? '')?.[1] ?? '""');
    await writeFile(file, suiteText('second'));
    // The data held for the first version went to this request; the next one finds the file changed.
    await load(dataId);
    const served = await load(dataId);
    const error = await import(`data:text/javascript,${encodeURIComponent(served?.code ?? '')}`).catch((e: Error) => e);
    expect((error as Error).message).toBe('s.bench.json changed while its cases were being loaded: run again');
  });
});
