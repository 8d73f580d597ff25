import { createHash } from 'node:crypto';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Report } from '@gz-bench/core';
import { probeSandbox } from '@gz-bench/core';
import { describe, it } from 'vitest';
import { cleanupAfterAll } from './support/cleanup.js';
import { agentPath } from './support/paths.js';
import { pluginProjectFiles } from './support/plugin-project.js';
import { readReport, resultOf } from './support/report.js';
import { runCli, runVitest } from './support/run.js';
import { sh } from './support/shell.js';
import { suite } from './support/suite.js';

// Long prompts through the real CLI and the plugin: {{promptFile}} passes a prompt of any length, as
// an argument or on stdin, with and without the sandbox; {{prompt}} with a prompt too long for one
// environment variable is refused with the limit and the way out, before anything runs.

const { project } = cleanupAfterAll();
const SANDBOX_WORKS = (await probeSandbox()).available;

/** 2 MiB and a bit of text that would break any quoting: newlines, quotes, `$(…)`, backslashes, UTF-8. */
const LONG_PROMPT = `${`line "${'$(touch pwned)'}" 'q' \\ ✓ \`x\` %s *\n`.repeat(50_000).slice(0, 2 * 1024 * 1024)}end`;
const LONG_DIGEST = createHash('sha256').update(LONG_PROMPT).digest('hex');
const LONG_BYTES = Buffer.byteLength(LONG_PROMPT);
const DIGEST_AGENT = `node ${sh(agentPath('prompt-digest.mjs'))}`;

const TOO_LONG_MESSAGE =
  "the prompt is 204800 bytes, over Linux's 128 KiB limit for one environment variable (131055 bytes of prompt); use {{promptFile}} (my-agent < {{promptFile}}) to pass long prompts";

function parseReport(stdout: unknown): Report {
  return JSON.parse(String(stdout)) as Report;
}

describe.concurrent('long prompts', () => {
  describe.each([
    ['none', true],
    ['bwrap', SANDBOX_WORKS],
  ])('--sandbox %s', (sandbox, works) => {
    it.skipIf(!works).for([
      ['as an argument', `${DIGEST_AGENT} {{promptFile}}`],
      ['on stdin', `${DIGEST_AGENT} < {{promptFile}}`],
    ])('{{promptFile}} passes a 2 MiB prompt byte for byte %s', async ([, cmd = ''], { expect }) => {
      const temp = await project({
        'suite.json': suite('long', [
          {
            id: 'long',
            prompt: LONG_PROMPT,
            checks: [
              { kind: 'outputMatches', pattern: `^prompt ${LONG_BYTES} bytes sha256 ${LONG_DIGEST}$`, flags: 'm' },
            ],
          },
        ]),
      });
      const tmp = join(temp.dir, 'tmp');
      await mkdir(tmp);
      const result = await runCli(['run', 'suite.json', '--cmd', cmd, '--sandbox', sandbox, '--json'], {
        cwd: temp.dir,
        env: { TMPDIR: tmp },
      });
      const row = resultOf(parseReport(result.stdout), 'long');
      expect(row.agent?.outputTail).toBe(`prompt ${LONG_BYTES} bytes sha256 ${LONG_DIGEST}\nenv prompt absent\n`);
      expect(row).toMatchObject({ passed: true, sandbox });
      expect(result.exitCode).toBe(0);
      // The case area went, prompt file and all.
      expect(await readdir(tmp)).toEqual([]);
    });
  });

  it('gz-bench run refuses {{prompt}} with a 200 KiB prompt before Vitest starts, naming the case, the limit and {{promptFile}}', async ({
    expect,
  }) => {
    const temp = await project({
      'suite.json': suite('long', [
        { id: 'short', prompt: 'fits' },
        { id: 'too-long', prompt: 'x'.repeat(204_800) },
      ]),
    });
    const result = await runCli(['run', 'suite.json', '--cmd', `${DIGEST_AGENT} "{{prompt}}"`, '--sandbox', 'none'], {
      cwd: temp.dir,
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(`gz-bench: suite.json: case "too-long": ${TOO_LONG_MESSAGE}`);
    expect(result.stdout).toBe('');
  });

  it('vitest run with the plugin fails that case with the same message, and runs the others', async ({ expect }) => {
    const temp = await project({
      ...pluginProjectFiles({ cmd: `${DIGEST_AGENT} < {{promptFile}}; echo "{{prompt}}"`, report: 'report.json' }),
      'bench/long.bench.json': suite('long', [
        { id: 'short', prompt: 'fits', checks: [{ kind: 'outputMatches', pattern: '^fits$', flags: 'm' }] },
        { id: 'too-long', prompt: 'x'.repeat(204_800) },
      ]),
    });
    const result = await runVitest(['run'], { cwd: temp.dir });
    expect(result.exitCode).toBe(1);
    const report = await readReport(temp.dir, 'report.json');
    expect(resultOf(report, 'short')).toMatchObject({ passed: true });
    expect(resultOf(report, 'too-long')).toMatchObject({
      passed: false,
      failedStep: 'agent',
      error: TOO_LONG_MESSAGE,
    });
    expect(resultOf(report, 'too-long').agent).toBeUndefined();
    // Vitest's own account of the failed test, on stderr, carries the whole message too.
    expect(String(result.stderr)).toContain(`CaseFailure: ${TOO_LONG_MESSAGE}`);
  });
});
