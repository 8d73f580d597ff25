import { realpathSync } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { probeSandbox, type Report } from '@gz-bench/core';
import { describe, expect, it } from 'vitest';
import { buildHostImage } from '../../packages/core/src/environment/test-support/host-image.js';
import { netnsPrefix, offlineUnavailable } from '../support/agent-cli.js';
import { cleanupAfterAll } from '../support/cleanup.js';
import { type ModelScript, startModelEndpoint } from '../support/model-endpoint/index.js';
import { REPO_ROOT } from '../support/paths.js';
import { runCli } from '../support/run.js';

// A preset agent inside an image: `gz-bench run --agent codex` (and claude-code) on a case whose
// environment is an image, offline, against the scripted loopback model. The model's one tool call
// runs `python3`, which the image has and which is not the host's: the agent's shell runs in the
// image's userland, with the CLI itself on the host's node, mounted read-only.

const BRIDGE = join(REPO_ROOT, 'test', 'support', 'model-endpoint', 'netns-bridge.mjs');
const IMAGE_PYTHON = '#!/bin/sh\necho "python3 of the image $*"\n';
const { project } = cleanupAfterAll();
const CLAUDE_EXE = realpathSync(join(REPO_ROOT, 'node_modules', '@anthropic-ai', 'claude-code', 'bin', 'claude.exe'));

const SUITE = {
  name: 'in-image',
  environment: { archive: 'image.tar' },
  cases: [
    {
      id: 'python',
      prompt: 'Write what python3 prints to which.txt.',
      checks: [{ kind: 'fileContains', path: 'which.txt', text: 'python3 of the image --version' }],
    },
  ],
};

function pythonScript(
  shellCall: { name: string; arguments: Record<string, unknown> },
  servedModel: string,
): ModelScript {
  return {
    servedModel,
    steps: [
      { kind: 'tool', ...shellCall, usage: { input: 100, output: 10 } },
      { kind: 'text', text: 'Done.', usage: { input: 120, output: 4 } },
    ],
  };
}

async function runInImage(agent: string, script: ModelScript, endpointEnv: (origin: string) => Record<string, string>) {
  const p = await project({ 'bench/in-image.bench.json': SUITE });
  const tmp = join(p.dir, 'tmp');
  const home = join(p.dir, 'home');
  await mkdir(tmp);
  await mkdir(home);
  await buildHostImage(
    {
      // What pnpm's .bin shims run: sed, dirname, uname.
      programs: ['/bin/bash', '/usr/bin/env', '/usr/bin/cat', '/bin/sed', '/usr/bin/dirname', '/bin/uname'],
      files: { '/usr/bin/python3': { script: IMAGE_PYTHON }, '/etc/passwd': 'root:x:0:0:root:/root:/bin/bash\n' },
      workingDir: '/srv/app',
      // Claude Code's native program loads librt, as a real image has it.
      librariesOf: [CLAUDE_EXE],
    },
    join(p.dir, 'image-build'),
    join(p.dir, 'bench', 'image.tar'),
  );
  const socketPath = join(p.dir, 'endpoint.sock');
  const endpoint = await startModelEndpoint(script, { socketPath });
  try {
    const port = new URL(endpoint.origin).port;
    const result = await runCli(
      ['run', 'bench/in-image.bench.json', '--agent', agent, '--unsafe', '--json', '--sandbox', 'bwrap'],
      {
        cwd: p.dir,
        env: { TMPDIR: tmp, HOME: home, GZ_BENCH_CACHE_DIR: join(p.dir, 'cache'), ...endpointEnv(endpoint.origin) },
        via: [...netnsPrefix('self', { mountProc: true }), process.execPath, BRIDGE, port, socketPath],
        timeoutMs: 120_000,
      },
    );
    return { result, endpoint, leftInTmp: await readdir(tmp) };
  } finally {
    await endpoint.close();
  }
}

const unavailable = offlineUnavailable();
const { available: bwrapWorks } = await probeSandbox();

describe.skipIf(unavailable !== undefined || !bwrapWorks)('a preset agent inside an image, offline', () => {
  it.each([
    {
      agent: 'codex:gpt-5-codex',
      script: pythonScript(
        { name: 'exec_command', arguments: { cmd: 'python3 --version > which.txt' } },
        'gpt-5-codex',
      ),
      endpointEnv: (origin: string) => ({ OPENAI_BASE_URL: `${origin}/v1`, OPENAI_API_KEY: 'sk-test-not-a-key' }),
    },
    {
      agent: 'claude-code:claude-sonnet-4-5',
      script: pythonScript(
        { name: 'Bash', arguments: { command: 'python3 --version > which.txt', description: 'Ask python3' } },
        'claude-sonnet-4-5-20250929',
      ),
      endpointEnv: (origin: string) => ({ ANTHROPIC_BASE_URL: origin, ANTHROPIC_API_KEY: 'sk-ant-test-not-a-key' }),
    },
  ])("$agent runs the image's python3, not the host's", async ({ agent, script, endpointEnv }) => {
    const { result, endpoint, leftInTmp } = await runInImage(agent, script, endpointEnv);
    const shown = `exit ${result.exitCode}\n${String(result.stdout).slice(-3000)}\n${String(result.stderr).slice(-3000)}`;
    expect(result.exitCode, shown).toBe(0);
    const report = JSON.parse(String(result.stdout)) as Report;
    const [row] = report.results;
    expect(row?.outcome, shown).toBe('passed');
    expect(row?.trajectory).toMatchObject({ toolCalls: 1 });
    expect(endpoint.unknown).toEqual([]);
    expect(leftInTmp).toEqual([]);
  });
});

if (unavailable !== undefined || !bwrapWorks) {
  it.skip(`a preset agent inside an image: ${unavailable ?? 'no working bwrap'}`, () => {});
}
