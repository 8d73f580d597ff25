import { describe, expect, it } from 'vitest';
import type { AgentRun } from '../report/model.js';
import { agentErrorOverCheck, lastErrorLine, outcomeOf } from './outcome.js';

const agent = (overrides: Partial<AgentRun>): AgentRun => ({
  exitCode: 0,
  signal: null,
  timedOut: false,
  durationMs: 10,
  outputTail: '',
  outputBytes: 0,
  outputDroppedBytes: 0,
  ...overrides,
});

describe('outcomeOf', () => {
  it('names each way a trial ends', () => {
    expect(outcomeOf(undefined, agent({}))).toBe('passed');
    expect(outcomeOf({ step: 'check', message: 'x' }, agent({}))).toBe('failed');
    expect(outcomeOf({ step: 'tamper', message: 'x' }, agent({}))).toBe('tampered');
    expect(outcomeOf({ step: 'agent', message: 'x' }, agent({ timedOut: true, exitCode: null }))).toBe('timedOut');
    expect(outcomeOf({ step: 'agent', message: 'x' }, agent({ exitCode: 1 }))).toBe('agentError');
    expect(outcomeOf({ step: 'agent', message: 'could not start' }, undefined)).toBe('agentError');
    expect(outcomeOf({ step: 'setup', message: 'x' }, undefined)).toBe('harnessError');
    expect(outcomeOf({ step: 'harness', message: 'x' }, undefined)).toBe('harnessError');
  });
});

describe('lastErrorLine', () => {
  it('is the last line that says something', () => {
    expect(lastErrorLine('working…\nError: Not logged in · Please run /login\n\n}\n  \n')).toBe(
      'Error: Not logged in · Please run /login',
    );
    expect(lastErrorLine('\n\n')).toBeUndefined();
    expect(lastErrorLine(`${'x'.repeat(400)}\n`)).toHaveLength(300);
  });
});

describe('agentErrorOverCheck', () => {
  const checkFailure = { step: 'check' as const, message: 'file does not exist: hello.txt' };

  it('blames the agent that exited non-zero, quoting its last line', () => {
    const crashed = agent({ exitCode: 41, outputTail: 'Invalid auth method selected.\n' });
    expect(agentErrorOverCheck(checkFailure, crashed)).toEqual({
      step: 'agent',
      message: 'agent command exited with 41: Invalid auth method selected.',
    });
    expect(agentErrorOverCheck(checkFailure, agent({ exitCode: null, signal: 'SIGSEGV' })).message).toBe(
      'agent command was killed by SIGSEGV',
    );
  });

  it('leaves a wrong answer of an agent that exited 0 as it is', () => {
    expect(agentErrorOverCheck(checkFailure, agent({ outputTail: 'done' }))).toBe(checkFailure);
  });
});
