import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { probeSandbox } from '../process/sandbox.js';
import type { Case } from '../suite/schema.js';
import { runCase } from './run-case.js';

// How the prompt reaches a case's commands: {{prompt}} through GZ_BENCH_PROMPT where it fits, and
// {{promptFile}} (GZ_BENCH_PROMPT_FILE) for a prompt of any length, as an argument or on stdin.

let outside: string;
beforeEach(async () => {
  outside = await mkdtemp(join(tmpdir(), 'gz-bench-run-case-prompt-'));
});
afterEach(() => rm(outside, { recursive: true, force: true }));

const base = (overrides: Partial<Case>): Case => ({ id: 'c', prompt: 'do it', checks: [], ...overrides });
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
/** A node one-liner that prints the sha256 of its stdin. */
const DIGEST_STDIN = `'${process.execPath}' -e 'process.stdout.write(require("crypto").createHash("sha256").update(require("fs").readFileSync(0)).digest("hex"))'`;
const probe = await probeSandbox();

describe('runCase: the prompt file', () => {
  it('holds the prompt byte for byte, read-only, in the case area outside the workspace', async () => {
    const prompt = "  two lines\nof ✓ text, $(no) 'expansion', no final newline \\";
    const result = await runCase(base({ prompt }), {
      cmd: `cp {{promptFile}} '${outside}/copy'; stat -c %a {{promptFile}} > '${outside}/mode'; printf %s {{promptFile}} > '${outside}/path'`,
    });
    expect(result.passed).toBe(true);
    expect(await readFile(join(outside, 'copy'), 'utf8')).toBe(prompt);
    expect((await readFile(join(outside, 'mode'), 'utf8')).trim()).toBe('444');
    const path = await readFile(join(outside, 'path'), 'utf8');
    expect(path).toMatch(/\/gz-bench-[^/]+\/prompt\.txt$/);
    // Gone with its area.
    expect(existsSync(dirname(path))).toBe(false);
  });

  it('passes a 2 MiB prompt on stdin; setup and checks get the file but not GZ_BENCH_PROMPT, which cannot hold it', async () => {
    const prompt = `${'0123456789abcdef'.repeat(128 * 1024)}end ✓`;
    const result = await runCase(
      base({
        prompt,
        setup: [`printf '%s' "\${GZ_BENCH_PROMPT-unset}" > '${outside}/setup-saw'`],
        checks: [
          { kind: 'outputMatches', pattern: `^${sha256(prompt)}$` },
          // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a JS template.
          { kind: 'command', run: 'test -z "${GZ_BENCH_PROMPT+set}" && test -s "$GZ_BENCH_PROMPT_FILE"' },
        ],
      }),
      { cmd: `${DIGEST_STDIN} < {{promptFile}}` },
    );
    expect(result).toMatchObject({ passed: true, checkResults: [{ passed: true }, { passed: true }] });
    expect(await readFile(join(outside, 'setup-saw'), 'utf8')).toBe('unset');
  });

  it('fails a case whose {{prompt}} cannot carry its prompt before anything runs, saying why and what to use', async () => {
    const result = await runCase(
      base({
        prompt: 'x'.repeat(204_800),
        setup: [`touch '${outside}/setup-ran'`],
        checks: [{ kind: 'fileExists', path: 'x' }],
      }),
      { cmd: `my-agent "{{prompt}}"; touch '${outside}/agent-ran'`, tmpDir: outside },
    );
    expect(result).toMatchObject({
      passed: false,
      failedStep: 'agent',
      error:
        "the prompt is 204800 bytes, over Linux's 128 KiB limit for one environment variable (131055 bytes of prompt); use {{promptFile}} (my-agent < {{promptFile}}) to pass long prompts",
      checkResults: [{ kind: 'fileExists', passed: false, skipped: true }],
    });
    expect(result.agent).toBeUndefined();
    expect(await readdir(outside)).toEqual([]);
  });

  it.skipIf(!probe.available)(
    'is read-only in the bwrap sandbox, for a root agent too: not written, removed, replaced or chmod-ed',
    async () => {
      const result = await runCase(
        base({
          prompt: 'the original prompt',
          checks: [{ kind: 'command', run: 'test "$(cat "$GZ_BENCH_PROMPT_FILE")" = "$GZ_BENCH_PROMPT"' }],
        }),
        {
          cmd: [
            'echo changed 2>/dev/null > {{promptFile}} && echo written',
            'rm -f {{promptFile}} 2>/dev/null && echo removed',
            'mv {{promptFile}} moved.txt 2>/dev/null && echo moved',
            'echo other > other.txt && mv -f other.txt {{promptFile}} 2>/dev/null && echo replaced',
            'chmod 666 {{promptFile}} 2>/dev/null && echo chmod-ed',
            'cat {{promptFile}}',
          ].join('; '),
          sandbox: { kind: 'bwrap' },
        },
      );
      expect(result.agent?.outputTail).toBe('the original prompt');
      expect(result).toMatchObject({ passed: true, sandbox: 'bwrap', checkResults: [{ passed: true }] });
    },
  );
});
