import { describe, expect, it } from 'vitest';
import { assertValidTemplate } from '../template/render-template.js';
import { PRESET_NAMES, preset } from './preset.js';

describe('preset', () => {
  it('runs each CLI headless, in its JSON output mode, approvals off, the prompt last', () => {
    expect(Object.fromEntries(PRESET_NAMES.map((name) => [name, preset(name).cmd]))).toEqual({
      'claude-code': 'claude -p --output-format stream-json --verbose --dangerously-skip-permissions < {{promptFile}}',
      codex:
        'codex exec --json --skip-git-repo-check --dangerously-bypass-approvals-and-sandbox ' +
        // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a JS template.
        '${OPENAI_BASE_URL:+-c model_provider=gz-bench -c "model_providers.gz-bench.base_url=$OPENAI_BASE_URL"} - < {{promptFile}}',
      gemini: 'gemini --output-format stream-json --yolo < {{promptFile}}',
      qwen: 'qwen --output-format json --yolo < {{promptFile}}',
      opencode: 'opencode run --format json --auto < {{promptFile}}',
    });
    for (const name of PRESET_NAMES) assertValidTemplate(preset(name).cmd);
  });

  it('takes a model, extra arguments and a program, quoted for the shell', () => {
    const agent = preset('claude-code', {
      model: 'opus',
      args: ['--max-turns', '5', "it's"],
      bin: '/opt/my tools/claude',
    });
    expect(agent).toMatchObject({ name: 'claude-code:opus', model: 'opus', preset: 'claude-code' });
    expect(agent.cmd).toBe(
      "'/opt/my tools/claude' -p --output-format stream-json --verbose --dangerously-skip-permissions --model opus --max-turns 5 'it'\\''s' < {{promptFile}}",
    );
    expect(preset('gemini', { model: 'gemini-2.5-flash', name: 'flash' })).toMatchObject({
      name: 'flash',
      cmd: 'gemini --output-format stream-json --yolo --model gemini-2.5-flash < {{promptFile}}',
    });
  });

  it('carries what each CLI needs around its command', () => {
    expect(preset('claude-code')).toMatchObject({
      env: { IS_SANDBOX: '1', DISABLE_TELEMETRY: '1', DISABLE_AUTOUPDATER: '1' },
      allowEnv: expect.arrayContaining(['ANTHROPIC_*']),
      login: ['.claude/.credentials.json', '.claude.json'],
      usage: { builtin: 'claude-code' },
    });
    expect(preset('gemini').env).toEqual({ GEMINI_CLI_TRUST_WORKSPACE: 'true' });
    expect(preset('codex').login).toEqual(['.codex/auth.json']);
    // A CLI run on an API key has no login files: a preset's are passed over when missing, or left out.
    expect(preset('codex').loginOptional).toBe(true);
    expect(preset('claude-code', { login: false })).not.toHaveProperty('login');
    for (const name of PRESET_NAMES) expect(preset(name).usage).toEqual({ builtin: name });
  });

  it('seeds settings that choose the auth method and turn telemetry and updates off', () => {
    const settings = (name: string) => JSON.parse(preset(name).home?.[0]?.content ?? '{}');
    expect(preset('gemini').home?.[0]?.path).toBe('.gemini/settings.json');
    expect(settings('gemini')).toEqual({
      security: { auth: { selectedType: 'gemini-api-key' } },
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
    });
    expect(preset('qwen').home?.[0]?.path).toBe('.qwen/settings.json');
    expect(settings('qwen').security).toEqual({ auth: { selectedType: 'openai' } });
    const toml = preset('codex').home?.[0];
    expect(toml?.path).toBe('.codex/config.toml');
    expect(toml?.content).toContain(
      '[model_providers.gz-bench]\nname = "OpenAI-compatible endpoint (OPENAI_BASE_URL)"\nenv_key = "OPENAI_API_KEY"\nwire_api = "responses"\n',
    );
    expect(toml?.content).toContain('[analytics]\nenabled = false\n');
  });

  it('lists a gz-bench/<model> in opencode’s provider, whose base URL and key come from the environment', () => {
    const config = JSON.parse(preset('opencode', { model: 'gz-bench/qwen3-coder' }).home?.[0]?.content ?? '{}');
    expect(config.provider['gz-bench']).toEqual({
      npm: '@ai-sdk/openai-compatible',
      name: 'OpenAI-compatible endpoint (OPENAI_BASE_URL)',
      options: { baseURL: '{env:OPENAI_BASE_URL}', apiKey: '{env:OPENAI_API_KEY}' },
      models: { 'qwen3-coder': { name: 'qwen3-coder' } },
    });
    expect(config).toMatchObject({ autoupdate: false, share: 'disabled' });
    expect(
      JSON.parse(preset('opencode', { model: 'anthropic/claude-sonnet-4-5' }).home?.[0]?.content ?? '{}').provider[
        'gz-bench'
      ].models,
    ).toEqual({});
  });

  it('refuses an unknown preset, suggesting the nearest, and an empty model', () => {
    expect(() => preset('claude')).toThrow(
      'unknown preset "claude" (did you mean claude-code?); presets are claude-code, codex, gemini, qwen, opencode',
    );
    expect(() => preset('codex', { model: ' ' })).toThrow('preset codex: the model is empty');
  });

  it('returns fresh objects: changing one agent never changes another', () => {
    const a = preset('claude-code');
    a.env = { ...a.env, IS_SANDBOX: '0' };
    a.allowEnv?.push('X');
    expect(preset('claude-code').env?.IS_SANDBOX).toBe('1');
    expect(preset('claude-code').allowEnv).not.toContain('X');
  });
});
