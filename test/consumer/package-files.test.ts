import { readFileSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Manifest, PACKAGES, runOk, userEnv } from './support.js';

// What `pnpm pack` puts in each tarball, read with `tar` and no install: every file that the
// manifest's `exports` and `bin` name, and every file that a shipped module imports, is in it; nothing
// that only the repository needs is; the manifest is one that npm users can install.
//
// Runs in the `consumer` project only, whose globalSetup packs the packages (without it, as when the
// file is run outside that project, it skips itself).

const pack = inject('gzConsumerPack');

/** The file list of a tarball, without npm's `package/` prefix. */
interface Packed {
  name: string;
  files: Set<string>;
  manifest: Manifest;
  /** Where the tarball is extracted, to read its files. */
  root: string;
}

const FORBIDDEN: Array<[RegExp, string]> = [
  [/\.test\.ts$/, 'test files'],
  [/(^|\/)test-support(\/|$)/, 'test support'],
  [/\.tsbuildinfo$/, 'TypeScript build info'],
  [/(^|\/)node_modules(\/|$)/, 'node_modules'],
];

/** Packages that type declarations may import without declaring them: none (the plugin takes vite's types through 'vitest/config'). */
const UNDECLARED_TYPE_IMPORTS_ALLOWED = new Set<string>();

describe.skipIf(pack === undefined)('published files (pnpm pack, no install)', () => {
  const packed = new Map<string, Packed>();
  let extractRoot = '';

  beforeAll(async () => {
    if (!pack) return;
    extractRoot = await realpath(await mkdtemp(join(tmpdir(), 'gz-bench-consumer-files-')));
    const env = userEnv();
    for (const pkg of PACKAGES) {
      const tarball = pkg.name === '@gz-bench/core' ? pack.core : pack.plugin;
      const listing = await runOk('tar', ['tzf', tarball], { cwd: extractRoot, env });
      const entries = listing.split('\n').filter((line) => line !== '');
      const outside = entries.filter((entry) => !entry.startsWith('package/'));
      expect(outside, `${tarball}: entries outside package/`).toEqual([]);
      const root = join(extractRoot, pkg.tarballPrefix);
      await runOk('mkdir', ['-p', root], { cwd: extractRoot, env });
      await runOk('tar', ['xzf', tarball, '-C', root], { cwd: extractRoot, env });
      const files = new Set(entries.map((entry) => entry.slice('package/'.length)).filter((f) => !f.endsWith('/')));
      const manifest = JSON.parse(readFileSync(join(root, 'package/package.json'), 'utf8')) as Manifest;
      packed.set(pkg.name, { name: pkg.name, files, manifest, root: join(root, 'package') });
    }
  });
  afterAll(async () => {
    if (extractRoot) await rm(extractRoot, { recursive: true, force: true });
  });

  const get = (name: string): Packed => {
    const found = packed.get(name);
    if (!found) throw new Error(`${name} was not packed`);
    return found;
  };

  for (const pkg of PACKAGES) {
    describe(pkg.name, () => {
      it('has package.json, LICENSE, suite.schema.json and nothing only the repository needs', () => {
        const { files } = get(pkg.name);
        expect(files.has('package.json')).toBe(true);
        expect(files.has('LICENSE')).toBe(true);
        expect(files.has('suite.schema.json')).toBe(true);
        for (const [pattern, what] of FORBIDDEN) {
          expect(
            [...files].filter((file) => pattern.test(file)),
            `${what} in the tarball`,
          ).toEqual([]);
        }
      });

      it('ships dist/**/*.js and .d.ts for every exports entry, types first in every condition object', () => {
        const { files, manifest } = get(pkg.name);
        const exportsField = manifest.exports as Record<string, unknown>;
        expect(exportsField, 'exports').toBeTypeOf('object');
        expect(exportsField).toHaveProperty('.');
        for (const [subpath, target] of Object.entries(exportsField)) {
          if (typeof target === 'string') {
            expect(files.has(normalize(target)), `exports["${subpath}"] = ${target}`).toBe(true);
            continue;
          }
          const conditions = target as Record<string, unknown>;
          expect(Object.keys(conditions)[0], `the first condition of exports["${subpath}"]`).toBe('types');
          for (const [condition, file] of Object.entries(conditions)) {
            expect(file, `exports["${subpath}"].${condition}`).toBeTypeOf('string');
            const path = normalize(String(file));
            expect(files.has(path), `exports["${subpath}"].${condition} = ${String(file)}`).toBe(true);
            expect(path, `exports["${subpath}"].${condition}`).toMatch(
              condition === 'types' ? /^dist\/.*\.d\.ts$/ : /^dist\/.*\.js$/,
            );
            if (condition !== 'types') expect(files.has(path.replace(/\.js$/, '.d.ts')), `${path}'s .d.ts`).toBe(true);
          }
        }
      });

      it('ships every file that its modules, declarations and source maps refer to', () => {
        const { files, root } = get(pkg.name);
        const missing: string[] = [];
        for (const file of files) {
          if (!/\.(js|d\.ts)$/.test(file)) continue;
          for (const specifier of relativeReferences(readFileSync(join(root, file), 'utf8'))) {
            const target = posix.normalize(posix.join(posix.dirname(file), specifier));
            // TypeScript resolves a declaration's `./x.js` to `./x.d.ts`: the bundles hold the modules.
            const declared = file.endsWith('.d.ts') && files.has(target.replace(/\.js$/, '.d.ts'));
            if (!files.has(target) && !declared) missing.push(`${file} -> ${specifier}`);
          }
        }
        for (const file of files) {
          if (!file.endsWith('.map')) continue;
          const map = JSON.parse(readFileSync(join(root, file), 'utf8')) as { sources?: string[] };
          for (const source of map.sources ?? []) {
            const target = posix.normalize(posix.join(posix.dirname(file), source));
            if (!files.has(target)) missing.push(`${file} (source map) -> ${source}`);
          }
        }
        expect(
          missing,
          'files referred to but not in the tarball (a dist file whose source is gone is a stale build output)',
        ).toEqual([]);
      });

      it('declares every package that its modules and declarations import', () => {
        const { files, root, manifest } = get(pkg.name);
        const declared = new Set([
          manifest.name,
          ...Object.keys((manifest.dependencies as Record<string, string> | undefined) ?? {}),
          ...Object.keys((manifest.peerDependencies as Record<string, string> | undefined) ?? {}),
        ]);
        const undeclared: string[] = [];
        for (const file of files) {
          const isDeclaration = file.endsWith('.d.ts');
          if (!file.endsWith('.js') && !isDeclaration) continue;
          for (const specifier of bareImports(readFileSync(join(root, file), 'utf8'))) {
            const name = packageName(specifier);
            if (name.startsWith('node:') || builtinModules.includes(name) || declared.has(name)) continue;
            if (isDeclaration && UNDECLARED_TYPE_IMPORTS_ALLOWED.has(name)) continue;
            undeclared.push(`${file} imports ${specifier}`);
          }
        }
        expect(undeclared).toEqual([]);
      });

      it('has a manifest that npm users can install', () => {
        const { manifest } = get(pkg.name);
        expect(manifest.name).toBe(pkg.name);
        expect(manifest.version).toBe(pack?.version);
        for (const field of ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies']) {
          for (const [dependency, range] of Object.entries((manifest[field] as Record<string, string>) ?? {})) {
            expect(range, `${field}.${dependency}`).not.toMatch(/^workspace:/);
          }
        }
        expect(manifest.engines, 'engines').toHaveProperty('node', expect.stringMatching(/\S/));
        expect(manifest.license, 'license').toBe('MIT');
        expect(manifest.repository, 'repository').toMatchObject({ type: 'git', url: expect.stringMatching(/\S/) });
        expect(manifest.keywords, 'keywords').toEqual(expect.arrayContaining([expect.stringMatching(/\S/)]));
        expect(manifest.files, 'files').toEqual(expect.arrayContaining(['dist', 'suite.schema.json']));
        expect(manifest.type, 'type').toBe('module');
      });
    });
  }

  it('@gz-bench/vitest-plugin: vitest is a peer (^4.1 || ^5), core is the same version, bin is a node script', () => {
    const { manifest, files, root } = get('@gz-bench/vitest-plugin');
    expect(manifest.peerDependencies).toEqual({ vitest: '^4.1 || ^5' });
    expect(manifest.dependencies).toHaveProperty(['@gz-bench/core'], pack?.version);
    expect(manifest.dependencies).not.toHaveProperty('vitest');
    const bin = manifest.bin as Record<string, string>;
    expect(Object.keys(bin)).toEqual(['gz-bench']);
    for (const [command, target] of Object.entries(bin)) {
      const path = normalize(target);
      expect(files.has(path), `bin.${command} = ${target}`).toBe(true);
      expect(readFileSync(join(root, path), 'utf8'), `bin.${command}`).toMatch(/^#!\/usr\/bin\/env node\n/);
    }
  });

  it('@gz-bench/core: no Vitest dependency of any kind (it imports no Vitest)', () => {
    const { manifest } = get('@gz-bench/core');
    for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
      expect(manifest[field] ?? {}, field).not.toHaveProperty('vitest');
    }
    expect(manifest.bin, 'bin').toBeUndefined();
  });
});

/** `./dist/x.js` → `dist/x.js`. */
function normalize(target: string): string {
  return posix.normalize(target);
}

const IMPORT_PATTERNS = [
  // import/export … from '…' (a statement, possibly over several lines; never across a string literal)
  /^\s*(?:import|export)\b[^;'"`]*?\bfrom\s*['"]([^'"]+)['"]/gm,
  // import '…' (side effects only)
  /^\s*import\s*['"]([^'"]+)['"]/gm,
  // import('…'), in code and in declarations' type references
  /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
];

/** Module specifiers of the import and export statements of a module or declaration file. */
function specifiers(code: string): string[] {
  const found: string[] = [];
  for (const pattern of IMPORT_PATTERNS) for (const match of code.matchAll(pattern)) found.push(match[1] ?? '');
  return found.filter((specifier) => specifier !== '');
}

/** Relative imports, and files named by `new URL('<relative>', import.meta.url)`. */
function relativeReferences(code: string): string[] {
  const urls = [...code.matchAll(/new URL\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*,\s*import\.meta\.url\s*\)/g)].map(
    (match) => match[1] ?? '',
  );
  return [...specifiers(code).filter((specifier) => specifier.startsWith('.')), ...urls].filter((s) => s !== '');
}

/** Imports of packages (not relative, not absolute). */
function bareImports(code: string): string[] {
  return specifiers(code).filter((specifier) => !specifier.startsWith('.') && !specifier.startsWith('/'));
}

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`. */
function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}
