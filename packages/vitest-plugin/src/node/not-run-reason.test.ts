import { describe, expect, it } from 'vitest';
import type { SerializedError } from 'vitest/node';
import { notRunReason } from './not-run-reason.js';

const workerCrash = {
  name: 'Error',
  message: '[vitest-pool]: Worker forks emitted error.',
  stack: '',
  cause: { name: 'Caused by: Error', message: 'Worker exited unexpectedly', stack: '' },
} as SerializedError;

describe('notRunReason', () => {
  it('names the root cause of an error outside the tests, such as a killed worker', () => {
    expect(notRunReason({ unhandledErrors: [workerCrash], reason: 'failed' })).toBe(
      'Vitest reported "Worker exited unexpectedly"',
    );
  });

  it('puts the file’s own load error first, on one line', () => {
    const reason = notRunReason({ unhandledErrors: [workerCrash], reason: 'failed' }, [
      'ENOSPC: no space left on device,\n  write',
    ]);
    expect(reason).toBe('Vitest could not run the suite file: ENOSPC: no space left on device, write');
  });

  it('says a cancelled run (--bail, Ctrl-C) never reached the case', () => {
    expect(notRunReason({ unhandledErrors: [], reason: 'interrupted' })).toBe('the run was cancelled first');
  });

  it('says so plainly when Vitest gave no reason', () => {
    expect(notRunReason({ unhandledErrors: [], reason: 'passed' })).toBe('Vitest ended the run without running it');
  });
});
