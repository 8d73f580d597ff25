import { CASE_SETTING_KEYS, TASK_SETTING_KEYS } from './defaults.js';
import type { Case, CaseSettings, Suite, TaskSettings } from './schema.js';

/**
 * A case with the suite's settings applied where the case sets none. `env` and `baseImages` are
 * merged name by name instead, the case's own values winning: a case adds a constant (or a base
 * image) without repeating the suite's.
 */
export function withSuiteSettings(suite: Suite, testCase: Case): Case {
  const inherited: CaseSettings & TaskSettings = {};
  for (const key of [...CASE_SETTING_KEYS, ...TASK_SETTING_KEYS]) {
    if (testCase[key] === undefined && suite[key] !== undefined) Object.assign(inherited, { [key]: suite[key] });
  }
  const merged = { ...inherited, ...testCase };
  if (suite.env !== undefined && testCase.env !== undefined) merged.env = { ...suite.env, ...testCase.env };
  if (suite.baseImages !== undefined && testCase.baseImages !== undefined) {
    merged.baseImages = { ...suite.baseImages, ...testCase.baseImages };
  }
  return merged;
}
