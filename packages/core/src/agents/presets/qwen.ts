import { joinCommand, type PresetSpec } from './preset-spec.js';

const SETTINGS = {
  // An OpenAI-compatible provider from OPENAI_API_KEY, OPENAI_BASE_URL and OPENAI_MODEL.
  security: { auth: { selectedType: 'openai' } },
  general: { enableAutoUpdate: false },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
};

/** Qwen Code headless (`--prompt`), its tools approved by `--yolo`. */
export const qwen: PresetSpec = {
  name: 'qwen',
  title: 'Qwen Code',
  npmPackage: '@qwen-code/qwen-code',
  bin: 'qwen',
  modelFlag: '--model',
  command: ({ bin, model, args }) => joinCommand(bin, '--output-format json --yolo', model, args, '< {{promptFile}}'),
  env: {},
  allowEnv: ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'OPENAI_MODEL'],
  home: () => [{ path: '.qwen/settings.json', content: `${JSON.stringify(SETTINGS, null, 2)}\n` }],
  login: [],
  credentials: ['OPENAI_API_KEY'],
  // Run and proven (test/agents/skill-placement.test.ts): its `skill` tool offers <cwd>/.qwen/skills and
  // ~/.qwen/skills (under QWEN_HOME when that is set; .agents/skills in both too).
  skillDirs: { project: '.qwen/skills', user: '.qwen/skills' },
};
