import { describe, expect, it } from 'vitest';
import { launchMismatch, predictWorkerLaunch, type WorkerLaunch } from './worker-launch.js';

const inputs = {
  vitestDir: '/deps/vitest',
  vitestMajor: 4,
  env: { PATH: '/bin', HOME: '/home/u', UNSET: undefined },
  execArgv: ['--cpu-prof', '--cpu-prof-dir=/p', '--inspect'],
  stdoutIsTty: false,
  cwd: '/work',
};

/** The user's variables of `inputs`, and those Vitest 4.1 and 5 give every fork worker. */
const VITEST_ENV = {
  PATH: '/bin',
  HOME: '/home/u',
  TEST: 'true',
  VITEST: 'true',
  NODE_ENV: 'development',
  VITEST_MODE: 'RUN',
  FORCE_TTY: '',
};

describe('predictWorkerLaunch', () => {
  it('starts Vitest’s fork entry with its flags, its conditions, gz-bench’s heap flags and its preload, in the user’s environment and Vitest’s', () => {
    expect(predictWorkerLaunch(inputs)).toEqual({
      entrypoint: '/deps/vitest/dist/workers/forks.js',
      execArgv: [
        '--cpu-prof',
        '--cpu-prof-dir=/p',
        '--experimental-import-meta-resolve',
        '--require',
        '/deps/vitest/suppress-warnings.cjs',
        '--conditions',
        'node',
        '--conditions',
        'development',
        '--max-semi-space-size=1',
        '--optimize-for-size',
        '--expose-gc',
        // The harness's modules, loaded while the CLI loads Vitest.
        '--import',
        new URL('./preload.js', import.meta.url).href,
      ],
      env: { ...VITEST_ENV, BASE_URL: '/', DEV: '1', MODE: 'test', PROD: '' },
      cwd: '/work',
    });
  });

  it('leaves Vite’s variables to Vitest 4: Vitest 5 gives its workers none', () => {
    const env = predictWorkerLaunch({ ...inputs, vitestMajor: 5 })?.env;
    expect(env).toEqual(VITEST_ENV);
  });

  it('leaves out the heap flags the user gave in NODE_OPTIONS, and says when stdout is a terminal', () => {
    const launch = predictWorkerLaunch({
      ...inputs,
      env: { NODE_OPTIONS: '--max-semi-space-size=8 --no-expose-gc' },
      stdoutIsTty: true,
    });
    expect(launch?.execArgv.slice(-3, -2)).toEqual(['--optimize-for-size']);
    expect(launch?.env).toMatchObject({ NODE_OPTIONS: '--max-semi-space-size=8 --no-expose-gc', FORCE_TTY: 'true' });
  });

  it('keeps a NODE_ENV the user set, and has no guess for production, which changes Vite’s conditions and env', () => {
    expect(predictWorkerLaunch({ ...inputs, env: { NODE_ENV: 'test' } })?.env.NODE_ENV).toBe('test');
    expect(predictWorkerLaunch({ ...inputs, env: { NODE_ENV: 'production' } })).toBeUndefined();
  });
});

describe('launchMismatch', () => {
  const ahead: WorkerLaunch = {
    entrypoint: '/v/forks.js',
    execArgv: ['--a'],
    env: { A: '1', SECRET: 's1' },
    cwd: '/w',
  };

  it('accepts only the very same launch', () => {
    expect(launchMismatch(ahead, { ...ahead, env: { SECRET: 's1', A: '1' } })).toBeUndefined();
  });

  it('names what differs, and of the environment only the variable’s name', () => {
    expect(launchMismatch(ahead, { ...ahead, entrypoint: '/other/forks.js' })).toBe(
      'Vitest starts its workers from /other/forks.js',
    );
    expect(launchMismatch(ahead, { ...ahead, execArgv: ['--a', '--b'] })).toBe(
      'Vitest starts its workers with --a --b',
    );
    expect(launchMismatch(ahead, { ...ahead, execArgv: [] })).toBe('Vitest starts its workers with ');
    expect(launchMismatch(ahead, { ...ahead, cwd: '/x' })).toBe('Vitest starts its workers in /x');
    expect(launchMismatch(ahead, { ...ahead, env: { A: '1', SECRET: 's2' } })).toBe(
      'Vitest starts its workers with another SECRET',
    );
    expect(launchMismatch(ahead, { ...ahead, env: { A: '1' } })).toBe('Vitest starts its workers with another SECRET');
    expect(launchMismatch(ahead, { ...ahead, env: { ...ahead.env, B: '' } })).toBe(
      'Vitest starts its workers with another B',
    );
  });
});
