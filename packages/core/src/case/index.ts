export { type CaseEnvOptions, caseEnv, PASSED_ENV } from './agent-env.js';
export { inlinePromptProblem, MAX_INLINE_PROMPT_BYTES, promptFitsInEnv } from './prompt-delivery.js';
export { caseBudgetMs, caseTimeoutSec, type RunCaseOptions, runCase } from './run-case.js';
