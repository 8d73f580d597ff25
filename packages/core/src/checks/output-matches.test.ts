import { describe, expect, it, vi } from 'vitest';
import { outputMatchesCheck } from './output-matches.js';
import { matchAnswering, matchInline } from './test-support/inline-regex-matcher.js';
import { memfsWorkspace } from './test-support/memfs-workspace.js';
import type { CheckContext } from './types.js';

/** A memfs workspace holding a decoy `output.txt`, with the agent's `output` and the given matcher. */
function withOutput(output: string, matchRegex: CheckContext['matchRegex'] = matchInline): CheckContext {
  const { context } = memfsWorkspace({ 'output.txt': 'PASS: 12 tests\n' });
  return { ...context, output, matchRegex };
}

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

  it('hands the pattern, its flags and the output to the matcher, and opens no file', async () => {
    const matchRegex = vi.fn(matchInline);
    const workspace = memfsWorkspace({ 'output.txt': 'PASS: 12 tests\n' });
    const context = { ...workspace.context, output, matchRegex };
    await outputMatchesCheck.evaluate(check('^PASS', 'm'), context);
    expect(matchRegex).toHaveBeenCalledExactlyOnceWith('^PASS', 'm', output);
    expect(workspace.opened).toEqual([]);
    await outputMatchesCheck.evaluate(check('PASS'), withOutput(output, matchRegex));
    expect(matchRegex).toHaveBeenLastCalledWith('PASS', undefined, output);
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
    // The decoy file says PASS; only the output counts.
    await expect(outputMatchesCheck.evaluate(check('PASS'), withOutput(''))).resolves.toEqual({
      passed: false,
      message: 'output does not match /PASS/',
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

  it('fails, saying it ran out of time and how to fix it, when the match does not finish in time', async () => {
    const timedOut = withOutput(output, matchAnswering({ status: 'timedOut', timeoutMs: 5000 }));
    await expect(outputMatchesCheck.evaluate(check('^(a+)+$'), timedOut)).resolves.toEqual({
      passed: false,
      message:
        'output did not finish matching /^(a+)+$/ within 5s (the pattern backtracks too much); simplify the pattern',
    });
    const fraction = withOutput(output, matchAnswering({ status: 'timedOut', timeoutMs: 500 }));
    await expect(outputMatchesCheck.evaluate(check('(x+x+)+y', 'i'), fraction)).resolves.toMatchObject({
      message:
        'output did not finish matching /(x+x+)+y/i within 0.5s (the pattern backtracks too much); simplify the pattern',
    });
  });

  it('fails as interrupted when the run stops during the match', async () => {
    const aborted = withOutput(output, matchAnswering({ status: 'aborted' }));
    await expect(outputMatchesCheck.evaluate(check('^(a+)+$'), aborted)).resolves.toEqual({
      passed: false,
      message: 'output matching /^(a+)+$/ was interrupted',
    });
  });

  it('fails with the engine’s reason when the match gives up', async () => {
    const failed = withOutput(
      output,
      matchAnswering({ status: 'failed', message: 'Maximum call stack size exceeded' }),
    );
    await expect(outputMatchesCheck.evaluate(check('^(?:a|b)*$'), failed)).resolves.toEqual({
      passed: false,
      message:
        'output could not be matched against /^(?:a|b)*$/: Maximum call stack size exceeded; simplify the pattern',
    });
  });
});
