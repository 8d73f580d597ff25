import { describe, expect, it } from 'vitest';
import { ALLOW_ENV_ENTRY_PATTERN, allowEnvItems, allowEnvProblem, allowedEnvNames } from './allow-env.js';

const SOURCE = {
  PATH: '/usr/bin',
  HOME: '/home/me',
  TMPDIR: '/tmp',
  ANTHROPIC_API_KEY: 'k',
  ANTHROPIC_BASE_URL: 'http://127.0.0.1:1',
  ANTHROPICX: 'x',
  GH_TOKEN: 't',
  EMPTY: '',
  GZ_BENCH_CMD: 'agent',
  GIT_DIR: '/repo/.git',
  UNSET: undefined,
};

describe('allowEnvItems', () => {
  it('splits lists at commas, trims, and tells names from PREFIX_* patterns', () => {
    expect(allowEnvItems(['A', ' B , C_* ', 'D'])).toEqual([
      { name: 'A' },
      { name: 'B' },
      { prefix: 'C_' },
      { name: 'D' },
    ]);
  });

  it('gives nothing for an entry allowEnvProblem refuses, and the rest of the entries', () => {
    expect(allowEnvItems(['A,B*C', 'HOME', 'D'])).toEqual([{ name: 'D' }]);
  });
});

describe('allowedEnvNames', () => {
  it('matches by exact name and by prefix, and only variables that are set', () => {
    expect(allowedEnvNames(['GH_TOKEN', 'ANTHROPIC_*', 'UNSET', 'MISSING'], SOURCE)).toEqual([
      'ANTHROPIC_API_KEY',
      'ANTHROPIC_BASE_URL',
      'GH_TOKEN',
    ]);
  });

  it('counts a variable set to the empty string as set', () => {
    expect(allowedEnvNames(['EMPTY'], SOURCE)).toEqual(['EMPTY']);
  });

  it('never lets a pattern pass the names gz-bench owns, whatever it covers', () => {
    // G* covers GH_TOKEN, GIT_DIR and GZ_BENCH_CMD; H* and T* cover HOME and TMPDIR.
    expect(allowedEnvNames(['G*', 'H*', 'T*'], SOURCE)).toEqual(['GH_TOKEN']);
  });

  it('a prefix without the underscore matches longer names too', () => {
    expect(allowedEnvNames(['ANTHROPIC*'], SOURCE)).toEqual(['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'ANTHROPICX']);
  });

  it('nothing for no entries', () => {
    expect(allowedEnvNames([], SOURCE)).toEqual([]);
  });
});

describe('allowEnvProblem', () => {
  it.each(['A', '_X1', 'a_b', 'A,B', ' A , B ', 'ANTHROPIC_*', 'A_*,B', 'G*'])('accepts %j', (entry) => {
    expect(allowEnvProblem(entry)).toBeUndefined();
    // What editors check agrees on the syntax.
    expect(new RegExp(ALLOW_ENV_ENTRY_PATTERN).test(entry)).toBe(true);
  });

  it.each([
    ['', 'must name a variable'],
    [' ', 'must name a variable'],
    ['A,', '"A," has an empty name between commas'],
    [',A', '",A" has an empty name between commas'],
    ['A-B', '"A-B" is not an environment variable name'],
    ['1A', '"1A" is not an environment variable name'],
    ['A B', '"A B" is not an environment variable name'],
    ['*', '"*" would pass the whole environment; name a prefix (PREFIX_*)'],
    ['*_KEY', '"*_KEY": a pattern has one *, at its end (PREFIX_*)'],
    ['A**', '"A**": a pattern has one *, at its end (PREFIX_*)'],
    ['1*', '"1*": the part before the * is not the start of an environment variable name'],
    ['GZ_BENCH_*', 'GZ_BENCH_* names only variables gz-bench sets itself, so it cannot be passed through'],
    ['GZ_BENCH_P*', 'GZ_BENCH_P* names only variables gz-bench sets itself, so it cannot be passed through'],
    [
      'GIT_*',
      'GIT_* names only git variables, which gz-bench sets itself for setup, checks and agents, so it cannot be passed through',
    ],
    ['TMP', 'TMP is set by gz-bench: each case has a temp directory of its own, so it cannot be passed through'],
    ['TEMP', 'TEMP is set by gz-bench: each case has a temp directory of its own, so it cannot be passed through'],
    ['A,GZ_BENCH_CMD', 'GZ_BENCH_CMD is set by gz-bench, as every GZ_BENCH_* variable, so it cannot be passed through'],
  ])('refuses %j: %s', (entry, message) => {
    expect(allowEnvProblem(entry)).toBe(message);
  });

  it('the editor pattern refuses what is not names and patterns', () => {
    for (const entry of ['', 'A,', 'A-B', '*', '*_KEY', 'A**', '1*']) {
      expect(new RegExp(ALLOW_ENV_ENTRY_PATTERN).test(entry), entry).toBe(false);
    }
  });
});
