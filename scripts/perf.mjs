// `pnpm perf`: measures gz-bench's own cost against baselines of the same run, prints one table
// headed by the machine's description, and writes it to docs/performance.md (see that file and
// scripts/perf/). It runs the built packages, as users do: `pnpm install` builds them.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const needed = ['../node_modules/.bin/gz-bench', '../node_modules/@gz-bench/core/dist/index.js'];
const missing = needed.find((path) => !existsSync(fileURLToPath(new URL(path, import.meta.url))));
if (missing !== undefined) {
  process.stderr.write(`perf: ${missing.replace('../', '')} is missing; run pnpm install (or pnpm build) first\n`);
  process.exit(1);
}
await import('./perf/main.mjs');
