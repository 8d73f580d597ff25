import { readFileSync } from 'node:fs';

let version: string | undefined;

/** The version of @gz-bench/vitest-plugin, read once from its package.json. */
export function packageVersion(): string {
  version ??= (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string })
    .version;
  return version;
}
