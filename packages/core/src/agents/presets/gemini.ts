import { joinCommand, type PresetSpec } from './preset-spec.js';

const SETTINGS = {
  // Without a chosen method a headless run stops at "Invalid auth method selected."; the key (and a
  // base URL) come from GEMINI_API_KEY and GOOGLE_GEMINI_BASE_URL.
  security: { auth: { selectedType: 'gemini-api-key' } },
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
};

/**
 * Gemini CLI headless (the prompt on stdin), its tools approved by `--yolo`; `stream-json` is the
 * output that carries its tool calls and their results (`json` holds only the final text and totals).
 */
export const gemini: PresetSpec = {
  name: 'gemini',
  title: 'Gemini CLI',
  npmPackage: '@google/gemini-cli',
  bin: 'gemini',
  modelFlag: '--model',
  command: ({ bin, model, args }) =>
    joinCommand(bin, '--output-format stream-json --yolo', model, args, '< {{promptFile}}'),
  // A fresh workspace is not a folder the user trusted; headless runs stop there without this, and
  // skills in the workspace load only from a trusted folder.
  env: { GEMINI_CLI_TRUST_WORKSPACE: 'true' },
  allowEnv: ['GEMINI_API_KEY', 'GOOGLE_API_KEY', 'GOOGLE_GEMINI_BASE_URL'],
  home: () => [{ path: '.gemini/settings.json', content: `${JSON.stringify(SETTINGS, null, 2)}\n` }],
  login: [],
  credentials: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
  // Run and proven (test/agents/skill-placement.test.ts): `activate_skill` offers <cwd>/.gemini/skills and
  // ~/.gemini/skills (.agents/skills in both too), the workspace's only when it is trusted (above).
  skillDirs: { project: '.gemini/skills', user: '.gemini/skills' },
};
