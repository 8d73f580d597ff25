import { Volume } from 'memfs';
import { describe, expect, it, vi } from 'vitest';
import type { ProcessResult } from '../process/types.js';
import type { Check } from '../suite/schema.js';
import { fileExistsCheck } from './file-exists.js';
import { type CheckRegistry, checkRegistry, evaluateCheck, evaluateChecks } from './registry.js';
import { matchInline } from './test-support/inline-regex-matcher.js';
import type { CheckContext, CheckFs } from './types.js';

/** A memfs workspace at /ws with hello.txt, and a runCommand that answers every command with `exitCode`. */
function context(exitCode = 0): CheckContext {
  const vol = Volume.fromJSON({ '/ws/hello.txt': 'hello', '/outside/secret.txt': 'SECRET' });
  const result: ProcessResult = {
    exitCode,
    signal: null,
    timedOut: false,
    aborted: false,
    durationMs: 5,
    output: { text: 'ok\n', totalBytes: 3, droppedBytes: 0 },
  };
  return {
    workspace: '/ws',
    fs: vol.promises as unknown as CheckFs,
    output: 'PASS: 3 tests',
    runCommand: vi.fn(async () => result),
    matchRegex: matchInline,
  };
}

describe('checkRegistry', () => {
  it('files every definition under its own kind', () => {
    for (const [kind, definition] of Object.entries(checkRegistry)) expect(definition.kind).toBe(kind);
    expect(Object.keys(checkRegistry).sort()).toEqual(
      ['command', 'fileContains', 'fileExists', 'fileNotExists', 'outputMatches', 'agentExit', 'skillUsed'].sort(),
    );
  });

  it('does not type-check with a kind missing or misfiled', () => {
    // @ts-expect-error every kind needs a definition
    const missing: CheckRegistry = { fileExists: fileExistsCheck };
    // @ts-expect-error a definition must sit under its own kind
    const misfiled: CheckRegistry = { ...checkRegistry, fileNotExists: fileExistsCheck };
    expect([missing, misfiled]).toHaveLength(2);
  });
});

describe('evaluateCheck', () => {
  it('returns the check fields first, then passed, message and details', async () => {
    const failed = await evaluateCheck({ kind: 'fileContains', path: 'hello.txt', text: 'hi', flags: 'i' }, context());
    expect(failed).toEqual({
      kind: 'fileContains',
      path: 'hello.txt',
      text: 'hi',
      flags: 'i',
      passed: false,
      message: 'file does not contain "hi": hello.txt',
    });
    expect(Object.keys(failed)).toEqual(['kind', 'path', 'text', 'flags', 'passed', 'message']);

    const command = await evaluateCheck({ kind: 'command', run: 'npm test', expectExit: 0 }, context(1));
    expect(Object.keys(command)).toEqual([
      'kind',
      'run',
      'expectExit',
      'passed',
      'message',
      'exitCode',
      'timedOut',
      'outputTail',
    ]);
    expect(command).toMatchObject({
      passed: false,
      message: 'command exited with 1, expected 0 (no output): npm test',
    });
  });

  it('leaves message out when the check passes', async () => {
    await expect(evaluateCheck({ kind: 'fileExists', path: 'hello.txt' }, context())).resolves.toStrictEqual({
      kind: 'fileExists',
      path: 'hello.txt',
      passed: true,
    });
  });

  it('turns a check that throws into a failed result', async () => {
    const throwing = { ...context(), runCommand: () => Promise.reject(new Error('runner crashed')) };
    await expect(evaluateCheck({ kind: 'command', run: 'npm test' }, throwing)).resolves.toEqual({
      kind: 'command',
      run: 'npm test',
      passed: false,
      message: 'check failed unexpectedly: runner crashed',
    });
  });

  it('fails an unknown kind instead of throwing', async () => {
    for (const kind of ['fileIsPretty', 'toString']) {
      const bogus = { kind, path: 'x' } as unknown as Check;
      await expect(evaluateCheck(bogus, context())).resolves.toMatchObject({
        passed: false,
        message: `check failed unexpectedly: unknown check kind "${kind}"`,
      });
    }
  });
});

describe('evaluateChecks', () => {
  const checks: Check[] = [
    { kind: 'fileExists', path: 'hello.txt' },
    { kind: 'outputMatches', pattern: 'PASS' },
    { kind: 'fileExists', path: 'world.txt' },
    { kind: 'command', run: 'npm test' },
    { kind: 'fileNotExists', path: '.env.local' },
  ];

  it('evaluates in order and skips everything after the first failure', async () => {
    const ctx = context();
    const results = await evaluateChecks(checks, ctx);
    expect(results).toEqual([
      { kind: 'fileExists', path: 'hello.txt', passed: true },
      { kind: 'outputMatches', pattern: 'PASS', passed: true },
      { kind: 'fileExists', path: 'world.txt', passed: false, message: 'file does not exist: world.txt' },
      { kind: 'command', run: 'npm test', passed: false, skipped: true },
      { kind: 'fileNotExists', path: '.env.local', passed: false, skipped: true },
    ]);
    expect(ctx.runCommand).not.toHaveBeenCalled();
  });

  it('evaluates every check when all pass', async () => {
    const passing = checks.filter((check) => !(check.kind === 'fileExists' && check.path === 'world.txt'));
    const ctx = context();
    const results = await evaluateChecks(passing, ctx);
    expect(results.map((result) => result.passed)).toEqual([true, true, true, true]);
    expect(results.some((result) => result.skipped)).toBe(false);
    expect(ctx.runCommand).toHaveBeenCalledExactlyOnceWith('npm test');
  });

  it('stops after a check that throws', async () => {
    const throwing = { ...context(), runCommand: () => Promise.reject(new Error('boom')) };
    const results = await evaluateChecks([{ kind: 'command', run: 'a' }, checks[0] as Check], throwing);
    expect(results).toEqual([
      { kind: 'command', run: 'a', passed: false, message: 'check failed unexpectedly: boom' },
      { kind: 'fileExists', path: 'hello.txt', passed: false, skipped: true },
    ]);
  });

  it('returns no results for no checks', async () => {
    await expect(evaluateChecks([], context())).resolves.toEqual([]);
  });
});
