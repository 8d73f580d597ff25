import { joinCommand, type PresetSpec } from './preset-spec.js';

/** The provider the seeded config defines for an OpenAI-compatible endpoint named by OPENAI_BASE_URL. */
export const OPENCODE_PROVIDER = 'gz-bench';

function config(model: string | undefined) {
  // opencode only runs models its config lists: a `gz-bench/<id>` model is listed under the provider.
  const id = model?.startsWith(`${OPENCODE_PROVIDER}/`) ? model.slice(OPENCODE_PROVIDER.length + 1) : undefined;
  return {
    $schema: 'https://opencode.ai/config.json',
    autoupdate: false,
    share: 'disabled',
    provider: {
      [OPENCODE_PROVIDER]: {
        npm: '@ai-sdk/openai-compatible',
        name: 'OpenAI-compatible endpoint (OPENAI_BASE_URL)',
        options: { baseURL: '{env:OPENAI_BASE_URL}', apiKey: '{env:OPENAI_API_KEY}' },
        models: id === undefined ? {} : { [id]: { name: id } },
      },
    },
  };
}

/**
 * opencode's `run`, its permission prompts answered by `--auto`. Models are `provider/model`:
 * `gz-bench/<model>` for the endpoint in OPENAI_BASE_URL, or one of opencode's own providers
 * (`anthropic/claude-sonnet-4-5`) with its key or login.
 */
export const opencode: PresetSpec = {
  name: 'opencode',
  title: 'opencode',
  npmPackage: 'opencode-ai',
  bin: 'opencode',
  modelFlag: '--model',
  command: ({ bin, model, args }) => joinCommand(bin, 'run --format json --auto', model, args, '< {{promptFile}}'),
  env: {
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    // Language servers it would otherwise download from the network on the first edit of a file.
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
  },
  allowEnv: ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'ANTHROPIC_API_KEY', 'OPENROUTER_API_KEY', 'OPENCODE_API_KEY'],
  home: (model) => [{ path: '.config/opencode/opencode.json', content: `${JSON.stringify(config(model), null, 2)}\n` }],
  login: ['.local/share/opencode/auth.json'],
  credentials: ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'OPENROUTER_API_KEY', 'OPENCODE_API_KEY'],
  // Run and proven (test/agents/skill-placement.test.ts): its `skill` tool offers <cwd>/.opencode/skills and
  // ~/.config/opencode/skills (`skill/`, .claude/skills and .agents/skills in both too). Loading one lists
  // its folder with ripgrep: `rg` on PATH, else ~/.cache/opencode/bin/rg, else one it downloads from
  // GitHub; offline with none, the load fails ("ripgrep execution failed").
  skillDirs: { project: '.opencode/skills', user: '.config/opencode/skills' },
};
