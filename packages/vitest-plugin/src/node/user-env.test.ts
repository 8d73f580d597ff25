import { describe, expect, it } from 'vitest';
import { withUserEnv } from '../shared/user-env.js';
import { startedEnvironment, userEnvOverrides, VITE_SET_NAMES } from './user-env.js';

describe('startedEnvironment', () => {
  it('reads the environment the kernel recorded at exec, values with = and newlines whole', () => {
    const raw = Buffer.from('MODE=user\0EMPTY=\0ODD=a=b\nc\0=no-name\0NOEQUALS\0');
    expect(startedEnvironment(() => raw)).toEqual({ MODE: 'user', EMPTY: '', ODD: 'a=b\nc' });
  });

  it('falls back to the environment the plugin was loaded with where there is no such record', () => {
    const env = startedEnvironment(() => {
      throw Object.assign(new Error('no /proc'), { code: 'ENOENT' });
    });
    expect(env.PATH).toBe(process.env.PATH);
  });
});

describe('userEnvOverrides', () => {
  it("gives every name Vite and Vitest set the user's value, or null, and the project's env names too", () => {
    const overrides = userEnvOverrides(['VITE_APP', 'MODE'], { MODE: 'user', VITE_APP: 'mine', OTHER: 'x' });
    expect(Object.keys(overrides).sort()).toEqual([...new Set([...VITE_SET_NAMES, 'VITE_APP'])].sort());
    expect(overrides).toMatchObject({ MODE: 'user', VITE_APP: 'mine', NODE_ENV: null, SSR: null });
  });
});

describe('withUserEnv', () => {
  it("puts the user's values back and unsets what the user had not set, leaving the rest", () => {
    const env = { MODE: 'test', SSR: '1', PATH: '/bin' };
    expect(withUserEnv(env, { MODE: 'user', SSR: null })).toEqual({ MODE: 'user', PATH: '/bin' });
    expect(env).toEqual({ MODE: 'test', SSR: '1', PATH: '/bin' });
    expect(withUserEnv(env, undefined)).toBe(env);
  });
});
