import { createHash } from 'node:crypto';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pathOnlyEnv, runIn } from '../process/test-support/processes.js';
import { PROMPT_ENV, PROMPT_FILE_ENV, renderTemplate } from '../template/render-template.js';
import { inlinePromptProblem, MAX_INLINE_PROMPT_BYTES, promptEnv, promptFitsInEnv } from './prompt-delivery.js';

describe('prompt delivery', () => {
  it('fits 131055 bytes of prompt in GZ_BENCH_PROMPT: 128 KiB less the name, "=" and the NUL', () => {
    expect(MAX_INLINE_PROMPT_BYTES).toBe(131_072 - 'GZ_BENCH_PROMPT='.length - 1);
    expect(promptFitsInEnv('x'.repeat(MAX_INLINE_PROMPT_BYTES))).toBe(true);
    expect(promptFitsInEnv('x'.repeat(MAX_INLINE_PROMPT_BYTES + 1))).toBe(false);
  });

  it('counts bytes, not characters', () => {
    const characters = Math.floor(MAX_INLINE_PROMPT_BYTES / 3);
    expect(promptFitsInEnv('✓'.repeat(characters))).toBe(true);
    expect(promptFitsInEnv('✓'.repeat(characters + 1))).toBe(false);
  });

  it('refuses a long prompt only where the template passes it inline, saying the limit and the way out', () => {
    const long = 'p'.repeat(204_800);
    expect(inlinePromptProblem('my-agent "{{prompt}}"', long)).toBe(
      "the prompt is 204800 bytes, over Linux's 128 KiB limit for one environment variable (131055 bytes of prompt); use {{promptFile}} (my-agent < {{promptFile}}) to pass long prompts",
    );
    expect(inlinePromptProblem('my-agent < {{promptFile}}', long)).toBeUndefined();
    expect(inlinePromptProblem('my-agent --prompt-file {{promptFile}} --workdir {{dir}}', long)).toBeUndefined();
    expect(inlinePromptProblem('echo done', long)).toBeUndefined();
    expect(inlinePromptProblem('my-agent "{{prompt}}"', 'p'.repeat(MAX_INLINE_PROMPT_BYTES))).toBeUndefined();
  });

  it('always passes the prompt file, and the prompt itself only where it fits', () => {
    expect(promptEnv('short', '/area/prompt.txt')).toEqual({
      [PROMPT_FILE_ENV]: '/area/prompt.txt',
      [PROMPT_ENV]: 'short',
    });
    expect(promptEnv('p'.repeat(MAX_INLINE_PROMPT_BYTES + 1), '/area/prompt.txt')).toEqual({
      [PROMPT_FILE_ENV]: '/area/prompt.txt',
    });
  });

  describe.runIf(process.platform === 'linux')('in a real shell', () => {
    let dir: string;
    beforeEach(async () => {
      dir = await realpath(await mkdtemp(join(tmpdir(), 'gz-bench-prompt-delivery-')));
    });
    afterEach(() => rm(dir, { recursive: true, force: true }));

    const digest = (text: string) => createHash('sha256').update(text).digest('hex');
    const AGENT = `'${process.execPath}' -e 'process.stdout.write(require("crypto").createHash("sha256").update(process.argv[1]).digest("hex"))'`;

    it('the longest prompt that fits reaches an agent through {{prompt}}, one byte more does not start', async () => {
      const longest = 'q'.repeat(MAX_INLINE_PROMPT_BYTES);
      const command = renderTemplate(`${AGENT} {{prompt}}`);
      const fits = await runIn(dir, command, { env: pathOnlyEnv(promptEnv(longest, '/unused')) });
      expect(fits).toMatchObject({ exitCode: 0, output: { text: digest(longest) } });
      const over = await runIn(dir, command, { env: pathOnlyEnv({ [PROMPT_ENV]: `${longest}q` }) });
      expect(over.spawnError).toMatch(/^spawn E2BIG: the environment variable GZ_BENCH_PROMPT is 131056 bytes/);
    });
  });
});
