export { createGzBenchPlugin, gzBench } from '../node/plugin.js';
export { GzBenchReporter, type GzBenchReporterOptions } from '../node/reporter.js';
export { OptionsError, resolveOptions } from '../node/resolve-options.js';
export type { GzBenchOptions, ResolvedGzBenchOptions } from '../shared/options.js';
