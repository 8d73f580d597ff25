// The plugin package ships the suite JSON Schema too, so `$schema` can name a package a project
// depends on directly (pnpm does not hoist @gz-bench/core to the top of node_modules).
import { copyFileSync } from 'node:fs';

copyFileSync(
  new URL('../packages/core/suite.schema.json', import.meta.url),
  new URL('../packages/vitest-plugin/suite.schema.json', import.meta.url),
);
