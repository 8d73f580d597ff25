import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzBench } from '@gz-bench/vitest-plugin';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/paths.js';

// The plugin serves suite files from its `load` hook and makes Vite 6/7's `vite:json` transform step
// aside for them (DESIGN.md, "Verified facts"). Vitest 4.1 and 5 accept Vite 6, 7 and 8, so each major
// gets a lane: a real Vite dev server (middleware mode, no Vitest) transforms a suite and a plain JSON file.
//
// Vite 6 and 7 come from devDependency aliases of the root package.json ("vite6": "npm:vite@6.4.6",
// "vite7": "npm:vite@7.3.8"); Vite 8 is the plugin package's own devDependency. A lane whose package is
// not installed is skipped.

/** The bits of Vite's API these tests use, the same in 6, 7 and 8. */
interface ViteModule {
  version: string;
  createServer(config: Record<string, unknown>): Promise<ViteDevServer>;
}
interface ViteDevServer {
  transformRequest(url: string, options?: { ssr?: boolean }): Promise<{ code: string } | null>;
  close(): Promise<void>;
}

/**
 * The ESM entry of a package as the package at `base` resolves it, or undefined when it is not installed.
 * (Plain `vite` must come from the plugin package: under `pnpm exec`, NODE_PATH makes a bare `vite`
 * from the root resolve to whichever Vite pnpm hoisted.)
 */
function locateEntry(name: string, base: string): string | undefined {
  let manifestPath: string;
  try {
    manifestPath = createRequire(join(REPO_ROOT, base, 'package.json')).resolve(`${name}/package.json`);
  } catch {
    return undefined;
  }
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { exports: { '.': string | { import: string } } };
  const main = manifest.exports['.'];
  return pathToFileURL(join(dirname(manifestPath), typeof main === 'string' ? main : main.import)).href;
}

const lanes = [
  { major: 6, name: 'vite6', base: '.', alias: '"vite6": "npm:vite@6.4.6" in the root package.json' },
  { major: 7, name: 'vite7', base: '.', alias: '"vite7": "npm:vite@7.3.8" in the root package.json' },
  { major: 8, name: 'vite', base: 'packages/vitest-plugin', alias: '"vite": "8.4.0" in packages/vitest-plugin' },
].map((lane) => ({ ...lane, entry: locateEntry(lane.name, lane.base) }));

const SUITE = {
  name: 'compat',
  cases: [
    { id: 'case-one', prompt: "Reply with 'one'.", checks: [] },
    { id: 'case "two"', prompt: 'x', timeoutSec: 5, checks: [{ kind: 'fileExists', path: 'a.txt' }] },
  ],
};
const PLAIN = { hello: 'world', list: [1, 2, 3] };

let root = '';
beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'gz-bench-vite-compat-')));
  await mkdir(join(root, 'bench'));
  await mkdir(join(root, 'data'));
  await writeFile(join(root, 'bench/compat.bench.json'), JSON.stringify(SUITE, null, 2));
  await writeFile(join(root, 'bench/broken.bench.json'), JSON.stringify({ name: 'broken', cases: [], extra: true }));
  await writeFile(join(root, 'data/plain.json'), JSON.stringify(PLAIN));
});
afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

for (const lane of lanes) {
  const title = lane.entry
    ? `gzBench on Vite ${lane.major}`
    : `gzBench on Vite ${lane.major} (skipped: add the devDependency ${lane.alias}, then pnpm install)`;

  describe.skipIf(lane.entry === undefined)(title, () => {
    let server: ViteDevServer | undefined;

    beforeAll(async () => {
      const vite = (await import(lane.entry as string)) as ViteModule;
      expect(vite.version.split('.')[0]).toBe(String(lane.major));
      server = await vite.createServer({
        root,
        configFile: false,
        cacheDir: join(root, `.vite-${lane.major}`),
        plugins: [gzBench({ cmd: 'true' })],
        server: { middlewareMode: true, watch: null, hmr: false },
        optimizeDeps: { noDiscovery: true, include: [] },
        logLevel: 'silent',
      });
    });
    afterAll(async () => {
      await server?.close();
    });

    it('serves a suite as a module with one literal test() per case', async () => {
      const result = await server?.transformRequest('/bench/compat.bench.json');
      const code = result?.code ?? '';
      expect(code).toContain('defineSuite(');
      expect(code).toContain('test("case-one", { timeout: ');
      expect(code).toContain(`test(${JSON.stringify('case "two"')}, { timeout: `);
      expect(code.match(/\btest\(/g)).toHaveLength(2);
      expect(code).toMatch(/describe\("compat"/);
      // Not parsed again as JSON by vite:json.
      expect(code).not.toMatch(/^export default \{/m);
    });

    it('serves an invalid suite as a module that throws its validation message', async () => {
      const result = await server?.transformRequest('/bench/broken.bench.json');
      expect(result?.code).toContain('SuiteError');
      expect(result?.code).toContain('bench/broken.bench.json: invalid suite');
      expect(result?.code).toContain('unknown key \\"extra\\"');
    });

    it('leaves other JSON files to vite:json', async () => {
      for (const ssr of [false, true]) {
        const result = await server?.transformRequest('/data/plain.json', { ssr });
        expect(result?.code).not.toContain('defineSuite');
      }
      const client = (await server?.transformRequest('/data/plain.json'))?.code ?? '';
      // The client build of a JSON module is self-contained ES: run it and read its exports.
      const module = (await import(`data:text/javascript;base64,${Buffer.from(client).toString('base64')}`)) as {
        default: unknown;
        hello: unknown;
      };
      expect(module.default).toEqual(PLAIN);
      expect(module.hello).toBe('world');
    });
  });
}
