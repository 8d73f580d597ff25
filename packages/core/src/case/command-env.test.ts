import { describe, expect, it } from 'vitest';
import { GIT_SAFE_ENV } from '../workspace/git-baseline.js';
import { commandEnvs } from './command-env.js';

const SOURCE = {
  PATH: '/usr/bin',
  HOME: '/home/me',
  TERM: 'xterm',
  ANTHROPIC_API_KEY: 'k',
  ANTHROPIC_MODEL: 'm',
  OPENAI_API_KEY: 'o',
  OTHER: 'x',
  GIT_INDEX_FILE: '/hook/index',
  GZ_BENCH_TIMEOUT: '5',
};
const OWN = { GZ_BENCH_DIR: '/area/workspace', GZ_BENCH_CASE_TOKEN: 't'.repeat(32) };

const envsOf = (overrides: Partial<Parameters<typeof commandEnvs>[0]> = {}) =>
  commandEnvs({
    testCase: { id: 'c', prompt: 'p', checks: [] },
    source: SOURCE,
    home: '/area/home',
    tmp: '/area/tmp',
    own: OWN,
    ...overrides,
  });

describe('commandEnvs', () => {
  it('without settings: the minimal environment, git hardened for setup and checks, plain for the agent', () => {
    const { steps, agent } = envsOf();
    const minimal = {
      PATH: '/usr/bin',
      TERM: 'xterm',
      SHELL: '/bin/sh',
      HOME: '/area/home',
      TMPDIR: '/area/tmp',
      TMP: '/area/tmp',
      TEMP: '/area/tmp',
      ...OWN,
    };
    expect(steps).toEqual({ ...minimal, ...GIT_SAFE_ENV });
    expect(agent).toEqual({ ...minimal, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' });
  });

  it('passes what the case, the run and the agent allow; the agent alone gets its own', () => {
    const { steps, agent } = envsOf({
      testCase: { id: 'c', prompt: 'p', checks: [], allowEnv: ['ANTHROPIC_*'] },
      allowEnv: ['OTHER'],
      agent: { allowEnv: ['OPENAI_API_KEY'] },
    });
    expect(steps).toMatchObject({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_MODEL: 'm', OTHER: 'x' });
    expect(steps).not.toHaveProperty('OPENAI_API_KEY');
    expect(agent).toMatchObject({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_MODEL: 'm', OTHER: 'x', OPENAI_API_KEY: 'o' });
  });

  it('sets constants over the harness, the agent’s over the case’s, and gz-bench’s over everything', () => {
    const { steps, agent } = envsOf({
      testCase: { id: 'c', prompt: 'p', checks: [], env: { PATH: '/opt/bin', MODE: 'case', TERM: 'dumb' } },
      agent: { env: { MODE: 'agent', GIT_AUTHOR_NAME: 'A', HOME: '/evil', GZ_BENCH_DIR: '/evil' } },
    });
    expect(steps).toMatchObject({ PATH: '/opt/bin', MODE: 'case', TERM: 'dumb', HOME: '/area/home' });
    expect(agent).toMatchObject({ PATH: '/opt/bin', MODE: 'agent', GIT_AUTHOR_NAME: 'A', TERM: 'dumb' });
    // Refused by agentSettingsProblem before a case runs; never applied should they get this far.
    expect(agent.HOME).toBe('/area/home');
    expect(agent.GZ_BENCH_DIR).toBe('/area/workspace');
  });

  it('the real HOME with realHome, for every command', () => {
    const { steps, agent } = envsOf({ testCase: { id: 'c', prompt: 'p', checks: [], realHome: true } });
    expect(steps.HOME).toBe('/home/me');
    expect(agent.HOME).toBe('/home/me');
  });
});
