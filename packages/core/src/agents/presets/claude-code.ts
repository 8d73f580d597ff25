import { joinCommand, type PresetSpec } from './preset-spec.js';

/**
 * Claude Code in print mode. `stream-json` (which needs `--verbose`) carries the served model and
 * each tool call besides the closing summary that `json` prints alone. `--` keeps a prompt that
 * starts with `-` a prompt.
 */
export const claudeCode: PresetSpec = {
  name: 'claude-code',
  title: 'Claude Code',
  npmPackage: '@anthropic-ai/claude-code',
  bin: 'claude',
  modelFlag: '--model',
  command: ({ bin, model, args }) =>
    joinCommand(
      bin,
      '-p --output-format stream-json --verbose --dangerously-skip-permissions',
      model,
      args,
      // The prompt on stdin: any length, where an argument stops at 128 KiB.
      '< {{promptFile}}',
    ),
  env: {
    // As root, Claude Code refuses --dangerously-skip-permissions unless it is told it is sandboxed.
    IS_SANDBOX: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
  },
  allowEnv: ['ANTHROPIC_*', 'CLAUDE_CODE_OAUTH_TOKEN', 'CLAUDE_CODE_USE_BEDROCK', 'CLAUDE_CODE_USE_VERTEX'],
  home: () => [],
  login: ['.claude/.credentials.json', '.claude.json'],
  credentials: ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'CLAUDE_CODE_OAUTH_TOKEN'],
  // Run and proven (test/agents/skill-placement.test.ts): its `Skill` tool offers <cwd>/.claude/skills
  // and ~/.claude/skills (under CLAUDE_CONFIG_DIR when that is set).
  skillDirs: { project: '.claude/skills', user: '.claude/skills' },
};
