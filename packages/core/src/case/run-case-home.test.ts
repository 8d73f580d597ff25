import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmod,
  chown,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  realpath,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { probeSandbox } from '../process/sandbox.js';
import { compileForChild } from '../process/test-support/child-modules.js';
import type { CaseResult } from '../report/model.js';
import type { Case } from '../suite/schema.js';
import { removeTree } from '../workspace/remove-tree.js';
import type { AgentSettings } from './agent-settings.js';
import { runCase } from './run-case.js';

// An agent's login lives in files under the user's real HOME. A case gets copies of the ones named,
// in its own HOME: the agent may rewrite and delete them as it likes, in the sandbox too, and the real
// ones stay byte for byte as they were.

const run = promisify(execFile);
const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;
const probe = await probeSandbox();
const SANDBOXES: Array<'none' | 'bwrap'> = ['none', ...(probe.available ? (['bwrap'] as const) : [])];

let root: string;
let realHome: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'gzb-run-case-home-')));
  realHome = join(root, 'real-home');
  await mkdir(join(realHome, '.agent/state'), { recursive: true });
  await writeFile(join(realHome, '.agent.json'), '{"session":"real"}\n', { mode: 0o600 });
  await writeFile(join(realHome, '.agent/auth.json'), '{"token":"real-token"}\n', { mode: 0o600 });
  await writeFile(join(realHome, '.agent/state/history'), 'one\n');
  await writeFile(join(realHome, '.bashrc'), '# not a login\n');
});
afterEach(async () => {
  await removeTree(root);
});

/** Every entry under `dir` with its type, mode and content (a hash), or link target: what must not change. */
async function digest(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const name of (await readdir(dir)).sort()) {
    const path = join(dir, name);
    const stats = await lstat(path);
    const mode = (stats.mode & 0o7777).toString(8);
    if (stats.isDirectory()) out.push(`${name}/ ${mode}`, ...(await digest(path)).map((line) => `${name}/${line}`));
    else if (stats.isSymbolicLink()) out.push(`${name} -> ${await readlink(path)}`);
    else
      out.push(
        `${name} ${mode} ${createHash('sha256')
          .update(await readFile(path))
          .digest('hex')}`,
      );
  }
  return out;
}

const LOGIN: AgentSettings = {
  login: ['.agent.json', '.agent', '.missing-login'],
  home: [{ path: '.agent/settings.json', content: '{"telemetry":false}' }],
};

/** Reads its login, then rewrites, deletes and replaces it, and tries the real HOME directly. */
const VANDAL = [
  'cat "$HOME/.agent.json" "$HOME/.agent/auth.json" "$HOME/.agent/settings.json"',
  'echo rewritten > "$HOME/.agent.json"',
  'rm "$HOME/.agent/auth.json"',
  'rm -r "$HOME/.agent/state"',
  'mkdir "$HOME/.agent/state" && echo new > "$HOME/.agent/state/history"',
  'chmod 000 "$HOME/.agent"',
  `(echo direct >> "$REAL_HOME/.agent.json") 2>/dev/null && echo real-home-writable || echo real-home-read-only`,
].join('; ');

const CASE: Case = { id: 'login', prompt: 'p', checks: [] };

function expectAgentSawItsLogin(result: CaseResult): void {
  expect(result.agent?.outputTail).toContain('{"session":"real"}\n{"token":"real-token"}\n{"telemetry":false}');
  expect(result.warnings).toEqual([
    `the agent's login .missing-login was not copied: ${realHome}/.missing-login: it does not exist`,
  ]);
}

describe.each(SANDBOXES)('login files (sandbox %s)', (sandbox) => {
  it('are copied into the case HOME; what the agent does to them leaves the real ones byte for byte', async () => {
    const before = await digest(realHome);
    const result = await runCase(CASE, {
      cmd: VANDAL,
      env: { PATH: process.env.PATH, HOME: realHome, REAL_HOME: realHome },
      allowEnv: ['REAL_HOME'],
      agent: LOGIN,
      sandbox: { kind: sandbox },
      tmpDir: root,
    });
    expect(result.sandbox).toBe(sandbox);
    expectAgentSawItsLogin(result);
    if (sandbox === 'bwrap') {
      // The sandbox keeps the real HOME read-only: only the copies are the agent's to change.
      expect(result.agent?.outputTail).toMatch(/real-home-read-only\n$/);
      expect(await digest(realHome)).toEqual(before);
    } else {
      // Without the sandbox the agent runs as the user, who can write their HOME: the copies are
      // still apart from it, and only the direct write reached it.
      expect(result.agent?.outputTail).toMatch(/real-home-writable\n$/);
      await writeFile(join(realHome, '.agent.json'), '{"session":"real"}\n');
      expect(await digest(realHome)).toEqual(before);
    }
    // The case HOME went with its area.
    expect((await readdir(root)).sort()).toEqual(['real-home']);
  });
});

// The harness as an ordinary user: its HOME and temp dir are nobody's, and root's privileges do not
// paper over a copy that would fail.
describe.runIf(isRoot)('login files, the harness running as nobody', () => {
  let modules: Awaited<ReturnType<typeof compileForChild>>;
  beforeAll(async () => {
    modules = await compileForChild(['case/run-case.ts', 'process/sandbox.ts']);
    await writeFile(
      join(modules.dir, 'run-login.mjs'),
      `import { runCase } from './case/run-case.js';
import { resolveSandbox } from './process/sandbox.js';
const [tmpDir, mode, testCase, agent, cmd] = process.argv.slice(2);
const sandbox = await resolveSandbox(mode);
const result = await runCase(JSON.parse(testCase), { cmd, tmpDir, sandbox, agent: JSON.parse(agent), allowEnv: ['REAL_HOME'] });
process.stdout.write(JSON.stringify(result));
`,
    );
  });
  afterAll(() => modules?.dispose());

  it.each(SANDBOXES)('copies them and leaves the real ones unchanged (sandbox %s)', async (sandbox) => {
    await chmod(root, 0o755);
    const tmp = join(root, 'tmp');
    await mkdir(tmp);
    for (const path of [tmp, realHome, join(realHome, '.agent'), join(realHome, '.agent/state')]) {
      await chown(path, NOBODY, NOBODY);
    }
    for (const file of ['.agent.json', '.agent/auth.json', '.agent/state/history', '.bashrc']) {
      await chown(join(realHome, file), NOBODY, NOBODY);
    }
    // Without the sandbox, nobody could write its real HOME: take that right away from it, so that
    // nothing but the copies can change.
    await chmod(join(realHome, '.agent.json'), 0o400);
    const before = await digest(realHome);
    const { stdout } = await run(
      process.execPath,
      [join(modules.dir, 'run-login.mjs'), tmp, sandbox, JSON.stringify(CASE), JSON.stringify(LOGIN), VANDAL],
      {
        uid: NOBODY,
        gid: NOBODY,
        cwd: '/',
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: realHome, REAL_HOME: realHome },
      },
    );
    const result = JSON.parse(stdout) as CaseResult;
    expect(result.sandbox).toBe(sandbox);
    expectAgentSawItsLogin(result);
    expect(result.agent?.outputTail).toMatch(/real-home-read-only\n$/);
    expect(await digest(realHome)).toEqual(before);
    expect(await readdir(tmp)).toEqual([]);
  });
});
