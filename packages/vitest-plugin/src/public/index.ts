// Presets of the real agent CLIs, for `agents`: `preset('claude-code', { model: 'opus' })`.
export { PRESET_NAMES, preset } from '@gz-bench/core';
export { createGzBenchPlugin, gzBench } from '../node/plugin.js';
export { GzBenchReporter, type GzBenchReporterOptions } from '../node/reporter.js';
export { OptionsError, resolveOptions } from '../node/resolve-options.js';
export type { AgentOption, GzBenchOptions, PassRule, ResolvedGzBenchOptions } from '../shared/options.js';
