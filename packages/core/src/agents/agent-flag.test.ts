import { describe, expect, it } from 'vitest';
import { parseAgentFlag } from './agent-flag.js';
import { preset } from './preset.js';

describe('parseAgentFlag', () => {
  it('reads a preset, a preset with a model, and either under a name of the user’s', () => {
    expect(parseAgentFlag('claude-code')).toEqual(preset('claude-code'));
    expect(parseAgentFlag('claude-code:opus')).toEqual(preset('claude-code', { model: 'opus' }));
    expect(parseAgentFlag('claude-code:opus').name).toBe('claude-code:opus');
    expect(parseAgentFlag('fast=codex')).toEqual(preset('codex', { name: 'fast' }));
    expect(parseAgentFlag('big=claude-code:claude-opus-4-1')).toEqual(
      preset('claude-code', { name: 'big', model: 'claude-opus-4-1' }),
    );
    expect(parseAgentFlag('oc=opencode:gz-bench/qwen3-coder:free').model).toBe('gz-bench/qwen3-coder:free');
  });

  it('reads NAME=TEMPLATE as a command of the user’s own', () => {
    expect(parseAgentFlag('mine=my-agent --workdir {{dir}} "{{prompt}}"')).toEqual({
      name: 'mine',
      cmd: 'my-agent --workdir {{dir}} "{{prompt}}"',
    });
    // A value with whitespace, or that does not start with a preset's name, is a template.
    expect(parseAgentFlag('c=claude-code --extra {{prompt}}')).toEqual({
      name: 'c',
      cmd: 'claude-code --extra {{prompt}}',
    });
    expect(parseAgentFlag('x=./run.sh')).toEqual({ name: 'x', cmd: './run.sh' });
    expect(parseAgentFlag('eq=my-agent --mode=fast {{prompt}}').cmd).toBe('my-agent --mode=fast {{prompt}}');
  });

  it.each([
    ['', '--agent needs a value; write --agent PRESET, PRESET:MODEL, NAME=PRESET, NAME=PRESET:MODEL or NAME=TEMPLATE'],
    ['=codex', '--agent "=codex" has an empty name before "="'],
    ['mine=', '--agent "mine=" has nothing after "="; give a preset or a command template'],
    [
      'claud',
      '--agent: unknown preset "claud" (did you mean claude-code?); presets are claude-code, codex, gemini, qwen, opencode',
    ],
    ['gemeni:2.5-pro', '--agent: unknown preset "gemeni" (did you mean gemini?)'],
    [
      'my-agent {{prompt}}',
      `--agent "my-agent {{prompt}}" is neither a preset (claude-code, codex, gemini, qwen, opencode) nor NAME=TEMPLATE; name a command of your own, e.g. --agent mine='my-agent {{prompt}}'`,
    ],
    ['widget', '--agent "widget" is neither a preset'],
    ['bad name=codex', '--agent "bad name=codex" is neither a preset'],
    ['-x=codex', 'the name "-x" may hold letters, digits and . _ : @ / + - only, starting with a letter or digit'],
    ['fast=claud-code:haiku', '--agent: unknown preset "claud-code" (did you mean claude-code?)'],
  ])('refuses %j: %s', (text, message) => {
    expect(() => parseAgentFlag(text)).toThrow(message);
  });
});
