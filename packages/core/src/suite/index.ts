export { SuiteError, type SuiteErrorCode, type SuiteErrorOptions } from './errors.js';
export * from './json-schema.js';
export * from './labels.js';
export * from './load.js';
export * from './locate.js';
export * from './schema.js';
export {
  type SafeValidateResult,
  safeValidateSuite,
  type ValidateSuiteOptions,
  validateSuite,
} from './validate.js';
