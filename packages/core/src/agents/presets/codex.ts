import { joinCommand, type PresetSpec } from './preset-spec.js';

/** The provider the seeded config defines for an OpenAI-compatible endpoint named by OPENAI_BASE_URL. */
export const CODEX_PROVIDER = 'gz-bench';

const CONFIG = `# Written by gz-bench into the case HOME.
check_for_update_on_startup = false

[analytics]
enabled = false

[feedback]
enabled = false

# Used when OPENAI_BASE_URL is set (the command then selects it and sets its base_url).
[model_providers.${CODEX_PROVIDER}]
name = "OpenAI-compatible endpoint (OPENAI_BASE_URL)"
env_key = "OPENAI_API_KEY"
wire_api = "responses"
`;

/**
 * Codex's non-interactive `exec`. Codex's built-in OpenAI provider ignores OPENAI_BASE_URL, so when
 * that variable is set the command selects the seeded `gz-bench` provider and gives it that base URL
 * (TOML cannot read the environment); without it Codex uses its own provider with the user's login or
 * API key. Its own sandbox is off: gz-bench's bwrap sandbox is the one that holds.
 */
export const codex: PresetSpec = {
  name: 'codex',
  title: 'Codex',
  npmPackage: '@openai/codex',
  bin: 'codex',
  modelFlag: '--model',
  command: ({ bin, model, args }) =>
    joinCommand(
      bin,
      'exec --json --skip-git-repo-check --dangerously-bypass-approvals-and-sandbox',
      `\${OPENAI_BASE_URL:+-c model_provider=${CODEX_PROVIDER} -c "model_providers.${CODEX_PROVIDER}.base_url=$OPENAI_BASE_URL"}`,
      model,
      args,
      // `-` reads the prompt from stdin: any length, where an argument stops at 128 KiB.
      '- < {{promptFile}}',
    ),
  env: {},
  allowEnv: ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'OPENAI_ORGANIZATION', 'OPENAI_PROJECT', 'CODEX_API_KEY'],
  home: () => [{ path: '.codex/config.toml', content: CONFIG }],
  login: ['.codex/auth.json'],
  credentials: ['OPENAI_API_KEY', 'CODEX_API_KEY'],
  // Run and proven (test/agents/skill-placement.test.ts): it lists the skills of <cwd>/.agents/skills and
  // ~/.agents/skills (.codex/skills and $CODEX_HOME/skills too) with their SKILL.md paths, for the model
  // to read through its shell: it has no skill tool.
  skillDirs: { project: '.agents/skills', user: '.agents/skills' },
};
