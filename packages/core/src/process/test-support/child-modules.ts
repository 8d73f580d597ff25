import { chmod, mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { copyReachable } from './reachable-copy.js';

const SRC = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Transpiles core source files (paths relative to packages/core/src) into a temp dir laid out like
 * src, so that a real child `node` process, which cannot run TypeScript on Node 20, can import them.
 * Tests need children that die without running cleanup handlers, or that run as another user.
 * The dir (world-readable, its dependencies included, so another user can import from it wherever
 * the checkout is) is removed by the returned `dispose`.
 */
export async function compileForChild(files: string[]): Promise<{ dir: string; dispose: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'gzb-test-modules-'));
  await chmod(dir, 0o755);
  await writeFile(join(dir, 'package.json'), '{ "type": "module" }\n');
  // Bare imports (zod) resolve to copies of core's dependencies: a link to the checkout's node_modules
  // would be out of reach of another user when the checkout lies under a private directory.
  const { dependencies = {} } = JSON.parse(await readFile(join(SRC, '..', 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  await mkdir(join(dir, 'node_modules'));
  await chmod(join(dir, 'node_modules'), 0o755);
  for (const name of Object.keys(dependencies)) {
    const installed = await realpath(join(SRC, '..', 'node_modules', name));
    await mkdir(dirname(join(dir, 'node_modules', name)), { recursive: true, mode: 0o755 });
    await copyReachable(installed, join(dir, 'node_modules', name));
  }
  // Each file's relative imports come along, so that a list names entry points and cannot go stale
  // when a module is split.
  const pending = [...files];
  const done = new Set<string>();
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (done.has(file)) continue;
    done.add(file);
    const source = await readFile(join(SRC, file), 'utf8');
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
      fileName: file,
    });
    pending.push(
      ...relativeImports(outputText).map((specifier) => join(dirname(file), specifier).replace(/\.js$/, '.ts')),
    );
    const out = join(dir, file.replace(/\.ts$/, '.js'));
    await mkdir(dirname(out), { recursive: true, mode: 0o755 });
    await writeFile(out, outputText, { mode: 0o644 });
  }
  return { dir, dispose: () => rm(dir, { recursive: true, force: true }) };
}

/** Specifiers of the relative static and dynamic imports (and re-exports) in transpiled JavaScript. */
function relativeImports(code: string): string[] {
  const found = code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g);
  return [...found].map((match) => match[1] as string);
}

/** Every source file of core (relative to packages/core/src), tests and test support left out. */
export async function coreSources(): Promise<string[]> {
  const entries = await readdir(SRC, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
    .map((entry) => relative(SRC, join(entry.parentPath, entry.name)))
    .filter((path) => !path.split('/').includes('test-support'));
}
