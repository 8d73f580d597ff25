export { BUILTIN_EXTRACTOR_NAMES } from './builtin-extractors.js';
export {
  type AgentOutput,
  type AgentOutputReading,
  type ExtractUsageOptions,
  extractUsage,
  readAgentOutput,
} from './extract-usage.js';
export { parseUsageExtractor, UsageExtractorError } from './parse-usage-extractor.js';
export { REGEX_TIMEOUT_MS, UsageRegexTimeoutError } from './regex-extract.js';
export { USAGE_FIELDS } from './usage-fields.js';
