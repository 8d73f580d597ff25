export { CaseLogs, type CommandLogName, type OpenedLog } from './case-logs.js';
export { type CaseLogLocation, type CaseLogPlace, caseLogLocation, displayPath, logSlug } from './log-paths.js';
