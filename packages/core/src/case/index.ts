export { type CaseEnvOptions, caseEnv, PASSED_ENV } from './agent-env.js';
export { type AgentSettings, agentSettingsProblem } from './agent-settings.js';
export { type Budget, budgetExceeded } from './budget.js';
export { type CommandEnvInput, type CommandEnvs, commandEnvs } from './command-env.js';
export { type LiveBudget, liveBudget } from './live-budget.js';
export { inlinePromptProblem, MAX_INLINE_PROMPT_BYTES, promptFitsInEnv } from './prompt-delivery.js';
export { caseBudgetMs, caseTimeoutSec, type RunCaseOptions, runCase, type TrajectoryOptions } from './run-case.js';
export { warmUpCommandLaunch } from './warm-up.js';
