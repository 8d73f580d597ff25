import { describe, expect, it } from 'vitest';
import type { GzBenchOptions } from '../shared/options.js';
import { OptionsError, resolveOptions } from './resolve-options.js';

describe('resolveOptions', () => {
  it('applies every default', () => {
    expect(resolveOptions({}, {})).toEqual({
      cmd: undefined,
      agents: [],
      trials: 1,
      passRule: 'majority',
      unsafe: false,
      maxCostUsd: undefined,
      maxTokens: undefined,
      markdown: '.gz-bench/scoreboard.md',
      include: ['**/*.bench.json'],
      timeout: undefined,
      keep: false,
      report: '.gz-bench/report.json',
      html: false,
      logs: '.gz-bench/logs',
      concurrency: 4,
      table: true,
      allowEnv: [],
      allowSecrets: false,
      sandbox: 'auto',
      baseImages: {},
      engine: 'auto',
      retryErrors: 0,
    });
  });

  it('lets GZ_BENCH_* variables override the plugin options', () => {
    const resolved = resolveOptions(
      { cmd: 'from-config', timeout: 5, keep: false, report: 'a.json', concurrency: 2, include: 'x/*.json' },
      {
        GZ_BENCH_CMD: 'from-env {{prompt}}',
        GZ_BENCH_TIMEOUT: '1.5',
        GZ_BENCH_KEEP: 'true',
        GZ_BENCH_REPORT: 'off',
        GZ_BENCH_LOGS: 'ci/logs',
        GZ_BENCH_HTML: 'ci/report.html',
        GZ_BENCH_CONCURRENCY: '16',
        GZ_BENCH_INCLUDE: 'a/*.json, b/*.json',
        GZ_BENCH_TABLE: '0',
        GZ_BENCH_ALLOW_ENV: 'OPENAI_API_KEY, GH_TOKEN',
        GZ_BENCH_ALLOW_SECRETS: 'yes',
        GZ_BENCH_SANDBOX: 'none',
        GZ_BENCH_ENGINE: 'podman',
        GZ_BENCH_TRIALS: '5',
        GZ_BENCH_PASS_RULE: '60%',
        GZ_BENCH_UNSAFE: 'yes',
        GZ_BENCH_MAX_COST_USD: '0.5',
        GZ_BENCH_MAX_TOKENS: '20000',
        GZ_BENCH_MARKDOWN: 'off',
        GZ_BENCH_ONLY_FAILED: 'out/earlier.json',
        GZ_BENCH_RETRY_ERRORS: '2',
      },
    );
    expect(resolved).toEqual({
      cmd: 'from-env {{prompt}}',
      agents: [],
      trials: 5,
      passRule: 0.6,
      unsafe: true,
      maxCostUsd: 0.5,
      maxTokens: 20000,
      markdown: false,
      include: ['a/*.json', 'b/*.json'],
      timeout: 1.5,
      keep: true,
      report: false,
      html: 'ci/report.html',
      logs: 'ci/logs',
      concurrency: 16,
      table: false,
      allowEnv: ['OPENAI_API_KEY', 'GH_TOKEN'],
      allowSecrets: true,
      sandbox: 'none',
      baseImages: {},
      engine: 'podman',
      onlyFailed: 'out/earlier.json',
      retryErrors: 2,
    });
  });

  it('takes retryErrors from 0 to 10 and onlyFailed as a path, and says what else it wants', () => {
    expect(resolveOptions({ retryErrors: 10, onlyFailed: 'r.json' }, {})).toMatchObject({
      retryErrors: 10,
      onlyFailed: 'r.json',
    });
    expect(() => resolveOptions({ retryErrors: 11 }, {})).toThrow(
      'gz-bench option "retryErrors" must be a whole number from 0 to 10, got 11',
    );
    expect(() => resolveOptions({}, { GZ_BENCH_RETRY_ERRORS: '1.5' })).toThrow(
      'gz-bench option "retryErrors" must be a whole number from 0 to 10, got 1.5',
    );
    expect(() => resolveOptions({ onlyFailed: ' ' }, {})).toThrow(
      'gz-bench option "onlyFailed" must be the path of an earlier gz-bench report',
    );
  });

  it('takes allowEnv lists and PREFIX_* patterns, in the options and GZ_BENCH_ALLOW_ENV', () => {
    expect(resolveOptions({ allowEnv: ['ANTHROPIC_*', 'A, B'] }, {}).allowEnv).toEqual(['ANTHROPIC_*', 'A, B']);
    expect(resolveOptions({}, { GZ_BENCH_ALLOW_ENV: 'ANTHROPIC_*,GH_TOKEN,' }).allowEnv).toEqual([
      'ANTHROPIC_*',
      'GH_TOKEN',
    ]);
    // The variable replaces the option, whose entries then need not be valid.
    expect(resolveOptions({ allowEnv: ['HOME'] }, { GZ_BENCH_ALLOW_ENV: 'X' }).allowEnv).toEqual(['X']);
  });

  it('writes no HTML page unless asked, and GZ_BENCH_HTML=false turns it off', () => {
    expect(resolveOptions({}, {}).html).toBe(false);
    expect(resolveOptions({ html: 'out/r.html' }, {}).html).toBe('out/r.html');
    expect(resolveOptions({ html: 'out/r.html' }, { GZ_BENCH_HTML: 'false' }).html).toBe(false);
    expect(() => resolveOptions({ html: ' ' }, {})).toThrow('gz-bench option "html" must be a path or false');
  });

  it('turns logs off with false, in the options or GZ_BENCH_LOGS', () => {
    expect(resolveOptions({ logs: false }, {}).logs).toBe(false);
    expect(resolveOptions({ logs: 'out/logs' }, { GZ_BENCH_LOGS: 'false' }).logs).toBe(false);
    expect(resolveOptions({}, { GZ_BENCH_LOGS: 'off' }).logs).toBe(false);
    expect(() => resolveOptions({ logs: ' ' }, {})).toThrow('gz-bench option "logs" must be a directory or false');
  });

  it('treats empty variables and undefined options as unset', () => {
    expect(resolveOptions({ cmd: 'c', keep: undefined }, { GZ_BENCH_CMD: '' })).toMatchObject({
      cmd: 'c',
      keep: false,
    });
  });

  it('runs the oracle agents alone with checkSuite or GZ_BENCH_CHECK_SUITE', () => {
    const oracle = {
      cmd: undefined,
      agents: [
        { name: 'no-op', cmd: 'true' },
        { name: 'solution', cmd: 'true' },
      ],
      trials: 1,
      solutionAgent: 'solution',
    };
    expect(resolveOptions({ cmd: 'my-agent', trials: 3, checkSuite: true }, {})).toMatchObject(oracle);
    expect(resolveOptions({ agents: { a: 'my-agent' } }, { GZ_BENCH_CHECK_SUITE: '1' })).toMatchObject(oracle);
    expect(resolveOptions({ cmd: 'my-agent' }, { GZ_BENCH_CHECK_SUITE: 'false' }).solutionAgent).toBeUndefined();
    expect(() => resolveOptions({}, { GZ_BENCH_CHECK_SUITE: 'maybe' })).toThrow(
      'GZ_BENCH_CHECK_SUITE must be true or false, got "maybe"',
    );
  });

  it('does not mutate the options it is given', () => {
    const options = Object.freeze({ include: Object.freeze(['a.json']) as unknown as string[] });
    expect(resolveOptions(options, {}).include).toEqual(['a.json']);
  });

  it.each([
    [{ timeout: 0 }, {}, 'gz-bench option "timeout" must be a positive number of seconds up to 86400, got 0'],
    [
      {},
      { GZ_BENCH_TIMEOUT: '1e9' },
      'gz-bench option "timeout" must be a positive number of seconds up to 86400, got 1000000000',
    ],
    [{ concurrency: 1.5 }, {}, 'gz-bench option "concurrency" must be a positive integer, got 1.5'],
    [
      { agents: { mine: { cmd: 'my-agent', trajectory: 'claude' } } },
      {},
      'gz-bench agent "mine": "trajectory": unknown stream format "claude" (did you mean claude-code?); the formats are claude-code, codex, gemini, qwen, opencode',
    ],
    [{ include: [] }, {}, 'gz-bench option "include" must name at least one non-empty glob'],
    [{ cmd: '  ' }, {}, 'gz-bench option "cmd" must be a non-empty command template'],
    [
      { cmd: 'agent {{promt}}' },
      {},
      'gz-bench option "cmd": unknown placeholder {{promt}} in the command template; use {{prompt}}, {{promptFile}} or {{dir}}',
    ],
    [
      {},
      { GZ_BENCH_CMD: 'agent {{ dir }}' },
      'gz-bench option "cmd": unknown placeholder {{ dir }} in the command template; use {{prompt}}, {{promptFile}} or {{dir}}',
    ],
    [{}, { GZ_BENCH_TIMEOUT: 'abc' }, 'GZ_BENCH_TIMEOUT must be a number, got "abc"'],
    [{}, { GZ_BENCH_KEEP: 'maybe' }, 'GZ_BENCH_KEEP must be true or false, got "maybe"'],
    [{}, { GZ_BENCH_CONCURRENCY: '0' }, 'gz-bench option "concurrency" must be a positive integer, got 0'],
    [{ allowEnv: ['API KEY'] }, {}, 'gz-bench option "allowEnv": "API KEY" is not an environment variable name'],
    [
      { allowEnv: ['A,*'] },
      {},
      'gz-bench option "allowEnv": "*" would pass the whole environment; name a prefix (PREFIX_*)',
    ],
    [
      { allowEnv: ['HOME'] },
      {},
      'gz-bench option "allowEnv": HOME is set by gz-bench: each case has a HOME of its own (realHome gives yours; an agent\'s "login" copies files from it), so it cannot be passed through',
    ],
    [{}, { GZ_BENCH_ALLOW_ENV: 'A,B*C' }, 'GZ_BENCH_ALLOW_ENV: "B*C": a pattern has one *, at its end (PREFIX_*)'],
    [
      {},
      { GZ_BENCH_ALLOW_ENV: 'GZ_BENCH_*' },
      'GZ_BENCH_ALLOW_ENV: GZ_BENCH_* names only variables gz-bench sets itself, so it cannot be passed through',
    ],
    [{}, { GZ_BENCH_SANDBOX: 'docker' }, 'gz-bench option "sandbox" must be auto, bwrap or none, got "docker"'],
    [
      {},
      { GZ_BENCH_ENGINE: 'kubernetes' },
      'gz-bench option "engine" must be auto, docker, podman or bwrap, got "kubernetes"',
    ],
    ...[{ python: '' }, ['images/a.tar'], { '': 'a.tar' }, { python: 3 }].map(
      (baseImages): [GzBenchOptions, NodeJS.ProcessEnv, string] => [
        { baseImages } as never,
        {},
        'gz-bench option "baseImages" must map FROM names to image archives, e.g. { "python:3.12-slim": "images/python.tar" }',
      ],
    ),
    [{ arms: {} }, {}, 'gz-bench option "arms" names no arm'],
    [
      { arms: { 'v/1': [] } } as never,
      {},
      'gz-bench option "arms" at v/1: an arm name is letters, digits, ".", "_" and "-", starting with a letter or digit, at most 64; write arms as { none: [], v1: [\'skills/my-skill\'] }',
    ],
    [
      { arms: { v1: 'skills/pdf' } } as never,
      {},
      'gz-bench option "arms" at v1: an arm is a list of skill folders, or { "skills": [...], "scope": "project" or "user" }; write arms as { none: [], v1: [\'skills/my-skill\'] }',
    ],
    [{ baselineArm: 'none' }, {}, 'gz-bench option "baselineArm" needs "arms" to pick from'],
    [
      { arms: { none: [], v1: ['s'] }, baselineArm: 'v2' },
      {},
      'gz-bench option "baselineArm" must name one of the arms (none, v1)',
    ],
  ])('rejects %j with env %j', (options, env, message) => {
    expect(() => resolveOptions(options, env)).toThrow(new OptionsError(message));
  });
});
