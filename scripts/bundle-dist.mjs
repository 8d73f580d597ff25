// Bundles each package's entry points in dist/ (what tsc emitted) into few files, in place.
//
// Node loads an ES module per file: resolving, reading and compiling each costs it about a
// millisecond, and gz-bench is some 200 small modules. Both the CLI's process and every
// Vitest worker import them before their first case can start, so the per-file cost was most of what
// gz-bench added to a run's start-up. Bundled, an entry is one file plus the chunks the entries share
// (code splitting keeps one copy of each module, so classes and module state stay single, and keeps
// dynamic imports lazy). The bundles keep tsc's output semantics: they are made from it, not from the
// sources, and follow its source maps back to src/. Entries stay where tsc put them, at the same
// depth, so paths that modules resolve against `import.meta.url` still point where they did.
import { readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const PACKAGES = [
  { name: 'core', entries: ['index.js', 'run.js'] },
  {
    name: 'vitest-plugin',
    entries: [
      'public/index.js',
      'runtime/index.js',
      'node/reporter.js',
      'cli/main.js',
      'prefork/start.js',
      'prefork/preload.js',
    ],
  },
];

for (const { name, entries } of PACKAGES) {
  const dist = join(ROOT, 'packages', name, 'dist');
  await build({
    entryPoints: entries.map((entry) => join(dist, entry)),
    outbase: dist,
    outdir: dist,
    allowOverwrite: true,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Dependencies stay packages of their own: users' installs resolve and dedupe them.
    packages: 'external',
    chunkNames: 'chunks/[name]-[hash]',
    sourcemap: true,
    // Names stay as written: error classes and functions are named in messages and reports.
    keepNames: true,
    logLevel: 'warning',
    absWorkingDir: ROOT,
    metafile: true,
  }).then(({ metafile }) => removeBundledModules(dist, metafile));
}

/**
 * Removes tsc's modules that the bundles now hold, so that the package has one copy of each and
 * nothing can import a second instance of a module by its old path. Declarations stay for types.
 */
function removeBundledModules(dist, metafile) {
  const kept = new Set(Object.keys(metafile.outputs).map((output) => join(ROOT, output)));
  for (const entry of readdirSync(dist, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    if (!entry.isFile() || !/\.js(\.map)?$/.test(entry.name) || kept.has(path)) continue;
    if (relative(dist, path).startsWith('..')) continue;
    rmSync(path);
  }
}
