// The worker side: generated suite modules import everything from here, so `vitest` resolves from
// this package even when a suite file lives in a directory with no node_modules.
export { describe, test } from 'vitest';
export { type DefinedSuite, defineSuite, type SuiteModuleData } from './define-suite.js';
