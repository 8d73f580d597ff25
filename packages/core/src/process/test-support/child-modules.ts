import { chmod, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const SRC = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Transpiles core source files (paths relative to packages/core/src) into a temp dir laid out like
 * src, so that a real child `node` process, which cannot run TypeScript on Node 20, can import them.
 * Tests need children that die without running cleanup handlers, or that run as another user.
 * The dir (world-readable, so another user can import from it) is removed by the returned `dispose`.
 */
export async function compileForChild(files: string[]): Promise<{ dir: string; dispose: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'gzb-test-modules-'));
  await chmod(dir, 0o755);
  await writeFile(join(dir, 'package.json'), '{ "type": "module" }\n');
  // Bare imports (zod) resolve through the core package's own node_modules.
  await symlink(join(SRC, '..', 'node_modules'), join(dir, 'node_modules'));
  for (const file of files) {
    const source = await readFile(join(SRC, file), 'utf8');
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
      fileName: file,
    });
    const out = join(dir, file.replace(/\.ts$/, '.js'));
    await mkdir(dirname(out), { recursive: true, mode: 0o755 });
    await writeFile(out, outputText, { mode: 0o644 });
  }
  return { dir, dispose: () => rm(dir, { recursive: true, force: true }) };
}
