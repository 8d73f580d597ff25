import { describe, expect, it } from 'vitest';
import { outputMatchesCheck } from './output-matches.js';
import type { CheckContext, CheckFs } from './types.js';

const withOutput = (output: string): CheckContext => ({
  workspace: '/ws',
  fs: {} as CheckFs,
  output,
  runCommand: () => Promise.reject(new Error('outputMatches runs no commands')),
});

const check = (pattern: string, flags?: string) => ({
  kind: 'outputMatches' as const,
  pattern,
  ...(flags !== undefined && { flags }),
});

describe('outputMatches', () => {
  const output = 'building…\nPASS: 12 tests\n';

  it('passes when the pattern matches the output', async () => {
    await expect(outputMatchesCheck.evaluate(check('PASS:\\s+\\d+ tests'), withOutput(output))).resolves.toEqual({
      passed: true,
    });
  });

  it('applies flags', async () => {
    await expect(outputMatchesCheck.evaluate(check('^PASS'), withOutput(output))).resolves.toMatchObject({
      passed: false,
    });
    await expect(outputMatchesCheck.evaluate(check('^PASS', 'm'), withOutput(output))).resolves.toEqual({
      passed: true,
    });
    await expect(outputMatchesCheck.evaluate(check('pass: 12', 'i'), withOutput(output))).resolves.toEqual({
      passed: true,
    });
  });

  it('fails with the pattern and its flags in the message', async () => {
    await expect(outputMatchesCheck.evaluate(check('^FAIL', 'im'), withOutput(output))).resolves.toEqual({
      passed: false,
      message: 'output does not match /^FAIL/im',
    });
    await expect(outputMatchesCheck.evaluate(check('FAIL'), withOutput(''))).resolves.toEqual({
      passed: false,
      message: 'output does not match /FAIL/',
    });
  });

  it('matches again and again with the g flag', async () => {
    const global = check('PASS', 'g');
    for (let i = 0; i < 3; i++) {
      await expect(outputMatchesCheck.evaluate(global, withOutput(output))).resolves.toEqual({ passed: true });
    }
  });
});
