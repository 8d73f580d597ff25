import { describe, expect, it } from 'vitest';
import { PRESET_NAMES, preset } from './preset.js';
import { unsafeAgents, unsafeFlags, unsafeGateMessage } from './unsafe-flags.js';

describe('unsafeFlags', () => {
  it.each([
    ['claude -p --dangerously-skip-permissions {{prompt}}', ['--dangerously-skip-permissions']],
    [
      'codex exec --dangerously-bypass-approvals-and-sandbox {{prompt}}',
      ['--dangerously-bypass-approvals-and-sandbox'],
    ],
    ['codex exec --full-auto -- {{prompt}}', ['--full-auto']],
    ['gemini --yolo -p {{prompt}}', ['--yolo']],
    ['cursor-agent --force -p {{prompt}}', ['--force']],
    ['my-agent --auto-approve "{{prompt}}"', ['--auto-approve']],
    ['gemini --approval-mode=yolo -p x', ['--approval-mode=yolo']],
    ['qwen --approval-mode yolo -p x', ['--approval-mode yolo']],
    ['claude --permission-mode bypassPermissions -p x', ['--permission-mode bypassPermissions']],
    ['claude --permission-mode=bypassPermissions -p x', ['--permission-mode=bypassPermissions']],
    ['gemini -y -p {{prompt}}', ['-y']],
    ['npx @google/gemini-cli@latest -y -p {{prompt}}', ['-y']],
    ['/opt/bin/qwen -y --prompt={{prompt}}', ['-y']],
    ['codex -a never -s danger-full-access exec x', ['-a never', '-s danger-full-access']],
    [
      'codex exec -c approval_policy=never -c \'sandbox_mode="danger-full-access"\' x',
      ['-c approval_policy=never', '-c sandbox_mode="danger-full-access"'],
    ],
    ['opencode run --auto x', ['--auto']],
    ['aider --yes-always --message {{prompt}}', ['--yes-always']],
    // Quotes do not hide a flag: the program still receives it.
    ['claude "--dangerously-skip-permissions" -p x', ['--dangerously-skip-permissions']],
    ['claude --danger\\ously-skip-permissions', ['--dangerously-skip-permissions']],
    // Nor does a command substitution, a conditional expansion, or a second command.
    ['my-agent $(echo --yolo) x', ['--yolo']],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a JS template.
    ['my-agent ${FAST:+--yolo --force} x', ['--yolo', '--force']],
    ['cd {{dir}} && gemini --yolo -p x; echo --force', ['--yolo', '--force']],
    ['env A=1 claude -p `printf %s --dangerously-skip-permissions`', ['--dangerously-skip-permissions']],
  ])('finds the flags of %s', (cmd, flags) => {
    expect(unsafeFlags(cmd)).toEqual(flags);
  });

  it.each([
    'my-agent --forced-colors --yolo-mode --force-push {{prompt}}',
    'my-agent "please never use --yolo" {{prompt}}',
    "my-agent 'do not pass --dangerously-skip-permissions' x",
    'apt-get -y install x && my-agent -y {{prompt}}',
    'my-agent --auto x',
    'codex exec --sandbox workspace-write -a on-request x',
    'claude --permission-mode acceptEdits -p x',
    'my-agent # --yolo is only a comment',
    'my-agent --approval-mode default x',
  ])('finds none in %s', (cmd) => {
    expect(unsafeFlags(cmd)).toEqual([]);
  });

  it('lists a flag once however often it is given', () => {
    expect(unsafeFlags('gemini --yolo --yolo -y -y')).toEqual(['--yolo', '-y']);
  });

  it('finds the approval bypass of every preset', () => {
    const found = Object.fromEntries(PRESET_NAMES.map((name) => [name, unsafeFlags(preset(name).cmd)]));
    expect(found).toEqual({
      'claude-code': ['--dangerously-skip-permissions'],
      codex: ['--dangerously-bypass-approvals-and-sandbox'],
      gemini: ['--yolo'],
      qwen: ['--yolo'],
      opencode: ['--auto'],
    });
  });
});

describe('unsafeGateMessage', () => {
  it('names each agent and its flags and says how to allow them', () => {
    const agents = unsafeAgents([
      preset('claude-code', { model: 'opus' }),
      { name: 'mine', cmd: 'my-agent {{prompt}}' },
      { name: 'fast', cmd: 'gemini -y --approval-mode=yolo -p {{prompt}}' },
    ]);
    expect(agents).toEqual([
      { name: 'claude-code:opus', flags: ['--dangerously-skip-permissions'] },
      { name: 'fast', flags: ['-y', '--approval-mode=yolo'] },
    ]);
    expect(unsafeGateMessage(agents)).toBe(
      'these agents turn off their own approval prompts, so they can run any command without asking: ' +
        'claude-code:opus (--dangerously-skip-permissions), fast (-y, --approval-mode=yolo); ' +
        'allow this with --unsafe (unsafe: true in the plugin options), best in the sandbox (--sandbox bwrap)',
    );
  });

  it('speaks of one agent in the singular', () => {
    expect(unsafeGateMessage([{ name: 'codex', flags: ['--full-auto'] }])).toMatch(
      /^this agent turns off its own approval prompts, so it can run any command without asking: codex \(--full-auto\); allow/,
    );
  });
});
