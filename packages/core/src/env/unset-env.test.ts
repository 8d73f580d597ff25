import { describe, expect, it } from 'vitest';
import { unsetAllowEnvWarnings } from './unset-env.js';

const ENV = { PATH: '/usr/bin', GH_TOKEN: 'ghp-secret-value', EMPTY: '', ANTHROPIC_API_KEY: 'sk-ant-secret' };

describe('unsetAllowEnvWarnings', () => {
  it('one line per name that is not set, saying where it was asked for, and nothing for set ones', () => {
    expect(
      unsetAllowEnvWarnings(
        [
          { entries: ['GH_TOKEN', 'OPENAI_API_KEY'], origin: 'allowEnv of suite "x"' },
          { entries: ['EMPTY,OPENAI_API_KEY'], origin: '--allow-env' },
        ],
        ENV,
      ),
    ).toEqual(['OPENAI_API_KEY (allowEnv of suite "x", --allow-env) is not set; the agent will not receive it']);
  });

  it('a pattern that matches no variable that is set, and none for one that does', () => {
    expect(
      unsetAllowEnvWarnings([{ entries: ['ANTHROPIC_*', 'GEMINI_*', 'GZ_*'], origin: 'allowEnv of agent "a"' }], {
        ...ENV,
        GZ_BENCH_CMD: 'x',
      }),
    ).toEqual([
      'GEMINI_* (allowEnv of agent "a") matches no variable that is set; the agent will receive none',
      // The only variable GZ_* covers is gz-bench's own, which is never passed.
      'GZ_* (allowEnv of agent "a") matches no variable that is set; the agent will receive none',
    ]);
  });

  it('names at most three places and counts the rest', () => {
    const sources = ['a', 'b', 'c', 'd', 'e'].map((id) => ({ entries: ['NOPE'], origin: `allowEnv of case "${id}"` }));
    expect(unsetAllowEnvWarnings(sources, ENV)).toEqual([
      'NOPE (allowEnv of case "a", allowEnv of case "b", allowEnv of case "c", 2 more) is not set; the agent will not receive it',
    ]);
  });

  it('never prints a value', () => {
    const lines = unsetAllowEnvWarnings([{ entries: ['GH_TOKEN', 'ANTHROPIC_*', 'X'], origin: 'o' }], ENV).join('\n');
    expect(lines).not.toContain('secret');
  });
});
