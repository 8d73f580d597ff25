import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { invalidJsonError, invalidSuiteError, readSuiteError, SuiteError } from './errors.js';

describe('SuiteError messages', () => {
  it('name the path, or only the suite at the root', () => {
    expect(invalidSuiteError('cases[0].id', 'required').message).toBe('invalid suite at cases[0].id: required');
    expect(invalidSuiteError('', 'expected object, received array').message).toBe(
      'invalid suite: expected object, received array',
    );
  });

  it('prefix the file as shown and keep the absolute path apart', () => {
    const error = invalidSuiteError('name', 'required', { file: 'bench/x.bench.json' });
    expect(error.message).toBe('bench/x.bench.json: invalid suite at name: required');
    expect(error.file).toBe(resolve('bench/x.bench.json'));
    expect(error.detail).toBe('invalid suite at name: required');
  });

  it('give invalid JSON a 1-based position when known', () => {
    expect(invalidJsonError({ line: 3, column: 5 }, 'expected a value, found "]"', { file: 'x.json' }).message).toBe(
      'x.json: invalid JSON at line 3, column 5: expected a value, found "]"',
    );
    expect(invalidJsonError(undefined, 'Unexpected end of JSON input').message).toBe(
      'invalid JSON: Unexpected end of JSON input',
    );
  });

  it('turn errno codes into words and keep the original as cause', () => {
    const cause = Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
    const error = readSuiteError(cause, { file: 'x.json', absoluteFile: '/abs/x.json' });
    expect(error).toMatchObject({ code: 'GZ_BENCH_SUITE_UNREADABLE', file: '/abs/x.json', cause });
    expect(error.message).toBe('cannot read suite file x.json: permission denied');
  });

  it('are Errors named SuiteError, on one line', () => {
    const error = new SuiteError({ code: 'GZ_BENCH_INVALID_SUITE', detail: 'invalid suite: x' });
    expect(error).toBeInstanceOf(Error);
    expect(String(error)).toBe('SuiteError: invalid suite: x');
  });
});
