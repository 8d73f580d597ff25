// Empties the packages' dist/ before a build, so no module whose source was removed is packed.
import { rmSync } from 'node:fs';

for (const name of ['core', 'vitest-plugin']) {
  rmSync(new URL(`../packages/${name}/dist`, import.meta.url), { recursive: true, force: true });
}
