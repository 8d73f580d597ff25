import { describe, expect, it } from 'vitest';
import { envConstantNameProblem, envConstantsProblem } from './env-constants.js';

describe('env constants', () => {
  it("may set PATH, SHELL, LANG and any other name that is not gz-bench's", () => {
    expect(
      envConstantsProblem({ PATH: '/opt/bin:/usr/bin', SHELL: '/bin/bash', IS_SANDBOX: '1', EMPTY: '' }),
    ).toBeUndefined();
  });

  it.each(['HOME', 'TMPDIR', 'TMP', 'TEMP', 'GZ_BENCH_PROMPT', 'GIT_DIR', 'git_dir'])(
    'refuses %s in suites and cases',
    (name) => {
      expect(envConstantNameProblem(name)).toMatch(
        new RegExp(`^${name} is set by gz-bench.*, so it cannot be set here$`),
      );
    },
  );

  it("lets an agent's own env set git variables, and nothing else of gz-bench's", () => {
    expect(envConstantNameProblem('GIT_AUTHOR_NAME', 'agent')).toBeUndefined();
    expect(envConstantNameProblem('HOME', 'agent')).toMatch(/^HOME is set by gz-bench/);
    expect(envConstantNameProblem('GZ_BENCH_DIR', 'agent')).toMatch(/^GZ_BENCH_DIR is set by gz-bench/);
  });

  it('names the first constant that cannot be used, and why', () => {
    expect(envConstantsProblem({ A: '1', 'B-C': '2' })).toBe('B-C: must be an environment variable name');
    expect(envConstantsProblem({ A: 'x\0y' })).toBe('A: may not contain a NUL character');
    expect(envConstantsProblem({ A: 1 } as unknown as Record<string, string>)).toBe('A: must be a string');
    expect(envConstantsProblem(JSON.parse('{"__proto__": "x"}'))).toBe('__proto__: __proto__ cannot be set');
  });
});
