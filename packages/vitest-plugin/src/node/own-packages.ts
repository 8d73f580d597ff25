import { realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

// gz-bench's worker runtime and the core it imports are plain ESM built for Node. Vitest imports what
// lies under node_modules natively, and transforms everything else through Vite, module by module,
// whenever a worker starts: gz-bench linked from elsewhere (a workspace, `npm link`, this repository's
// own tests and benchmark) costs about a second of every run's start-up that way, for nothing.

/** Patterns of the files of gz-bench's own packages, for Vitest's `test.server.deps.external`. */
export function ownPackageFiles(): RegExp[] {
  const pluginDist = fileURLToPath(new URL('../', import.meta.url));
  const coreDist = dirname(createRequire(import.meta.url).resolve('@gz-bench/core'));
  return [...new Set([pluginDist, coreDist].map(realDir))].map((dir) => new RegExp(escapeRegExp(dir)));
}

function realDir(dir: string): string {
  const real = realpathSync(dir);
  return real.endsWith('/') ? real : `${real}/`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
