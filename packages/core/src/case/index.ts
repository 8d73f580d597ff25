export { type CaseEnvOptions, caseEnv, PASSED_ENV } from './agent-env.js';
export { caseBudgetMs, caseTimeoutSec, type RunCaseOptions, runCase } from './run-case.js';
