import { chmod, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Report } from '@gz-bench/core';
import type { Result } from 'execa';
import { describe, type ExpectStatic, it } from 'vitest';
import { cleanupAfterAll } from './support/cleanup.js';
import { reachableCheckout } from './support/other-user.js';
import { resultOf } from './support/report.js';
import { runCli } from './support/run.js';

// Ordinary tools behave in the bwrap sandbox as they do outside it, whether the harness runs as root
// or as an ordinary user: tar gives extracted files their owners, cp -p keeps them, the files stay
// writable, and git and npm work on them. The same script runs in both sandbox modes, and must say
// the same.

const cleanup = cleanupAfterAll();
const AS_ROOT = process.getuid?.() === 0;

/** One line per step: its name, exit status and last line of output. */
const TOOLS_SCRIPT = `set -u
step() { name=$1; shift; out=$("$@" 2>&1); echo "$name: $? $(printf '%s' "$out" | tail -n 1)"; }
mkdir -p src/pkg && echo 'module.exports = 1;' > src/pkg/index.js
echo '{"name":"pkg","version":"1.0.0"}' > src/pkg/package.json && chmod 2775 src/pkg
step tar-create tar --owner=1000 --group=1000 -C src -cf owned.tar pkg
mkdir -p x && step tar-extract tar -C x -xf owned.tar
step owners stat -c '%u:%g %A' x/pkg x/pkg/index.js
step write-extracted sh -c 'echo "// more" >> x/pkg/index.js'
step cp-p cp -p x/pkg/index.js copy.js
step cp-p-owner stat -c '%u:%g' copy.js
step cp-a cp -a x/pkg pkg2
step git sh -c 'cd x/pkg && git init -q && git -c safe.directory="*" add -A && git -c safe.directory="*" -c user.email=a@b.c -c user.name=n commit -qm one && git -c safe.directory="*" log --format=%s'
step npm-pack sh -c 'cd x/pkg && npm pack --silent'
step npm-install sh -c 'mkdir -p app && cd app && echo "{\\"name\\":\\"app\\",\\"version\\":\\"1.0.0\\"}" > package.json && npm install --offline --no-audit --no-fund ../x/pkg/pkg-1.0.0.tgz >/dev/null && node -p "require(\\"pkg\\")"'
`;

const SUITE = { name: 'tools', cases: [{ id: 'tools', prompt: TOOLS_SCRIPT, checks: [{ kind: 'agentExit' }] }] };

function output(result: Result): string {
  return `exit ${result.exitCode}\n--- stdout\n${String(result.stdout)}\n--- stderr\n${String(result.stderr)}`;
}

/** The tools' lines in each sandbox mode, from the CLI run as `via` says (root, or nobody from a copy). */
async function toolLines(
  expect: ExpectStatic,
  via?: { runAs: string[]; cli: string[] },
): Promise<Record<'bwrap' | 'none', string>> {
  const temp = await cleanup.project({ 'suite.json': SUITE });
  // Another user must reach the project, and have a temp dir of its own (private, as the tests' are).
  await chmod(temp.dir, 0o755);
  const tmp = join(temp.dir, 'tmp');
  await mkdir(tmp);
  await chmod(tmp, 0o1777);
  const lines = { bwrap: '', none: '' };
  for (const sandbox of ['bwrap', 'none'] as const) {
    const result = await runCli(['run', '--sandbox', sandbox, 'suite.json', '--cmd', 'sh -c {{prompt}}', '--json'], {
      cwd: temp.dir,
      env: { TMPDIR: tmp },
      timeoutMs: 120_000,
      ...(via && { via: via.runAs, cli: via.cli }),
    });
    expect(result.exitCode, output(result)).toBe(0);
    const row = resultOf(JSON.parse(String(result.stdout)) as Report, 'tools');
    expect(row.sandbox).toBe(sandbox);
    lines[sandbox] = row.agent?.outputTail ?? '';
  }
  return lines;
}

describe('ordinary tools in the bwrap sandbox', () => {
  it.runIf(AS_ROOT)('as root: tar keeps owners, cp -p keeps them, and the files stay usable', async ({ expect }) => {
    const lines = await toolLines(expect);
    expect(lines.bwrap).toBe(lines.none);
    for (const line of [
      'tar-extract: 0 ',
      'owners: 0 1000:1000 -rw-r--r--',
      'write-extracted: 0 ',
      'cp-p-owner: 0 1000:1000',
      'cp-a: 0 ',
      'git: 0 one',
      'npm-install: 0 1',
    ]) {
      expect(lines.bwrap.split('\n')).toContain(line);
    }
  });

  it.runIf(AS_ROOT)(
    'as an ordinary user (nobody): the same as outside the sandbox',
    async ({ expect, onTestFinished }) => {
      const checkout = await reachableCheckout();
      onTestFinished(() => checkout.dispose());
      const lines = await toolLines(expect, {
        runAs: ['runuser', '-u', 'nobody', '--'],
        cli: [process.execPath, checkout.cliScript],
      });
      expect(lines.bwrap).toBe(lines.none);
      expect(lines.bwrap.split('\n')).toContain('tar-extract: 0 ');
      expect(lines.bwrap.split('\n')).toContain('npm-install: 0 1');
    },
  );
});
