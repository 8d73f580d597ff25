// `@gz-bench/core/run`: what a process that runs cases needs, and nothing that validates suites or
// renders reports. A Vitest worker imports this rather than the whole package: the schema library
// and the renderers are most of what importing `@gz-bench/core` costs, and a worker starts before
// its first case can.

export type { AgentDefinition } from './agents/definition.js';
export { agentTrajectoryFormat } from './agents/trajectory/formats.js';
export type { BaselineEntry } from './baseline/baseline-file.js';
export { type BaselineJudgement, type CellJudgement, judgeCell } from './baseline/judge-cell.js';
export { type AgentSettings, agentSettingsProblem } from './case/agent-settings.js';
export type { Budget } from './case/budget.js';
export {
  caseBudgetMs,
  caseTimeoutSec,
  type RunCaseOptions,
  runCase,
  type TrajectoryOptions,
} from './case/run-case.js';
export { warmUpCommandLaunch } from './case/warm-up.js';
export { markStage } from './debug/stage-timing.js';
export { NO_OP_COMMAND } from './integrity/oracle.js';
export { noOpVerdict, ORACLE_AGENTS } from './integrity/oracle-verdict.js';
export { type CaseLogLocation, type CaseLogPlace, caseLogLocation } from './logs/log-paths.js';
export {
  type CommandLaunch,
  type CommandLaunchOptions,
  type Containment,
  commandLaunch,
} from './process/command-launch.js';
export { leaveInterruptToParent } from './process/exit-cleanup.js';
export { dieWith } from './process/guardian.js';
export {
  isSandboxMode,
  probeSandbox,
  type ResolvedSandbox,
  resolveSandbox,
  SANDBOX_MODES,
  SandboxError,
  type SandboxMode,
} from './process/sandbox.js';
export type { CaseResult, Outcome, ReportResult, RetriedError } from './report/model.js';
export { planResumeCell, resumeCellKey } from './resume/resume-plan.js';
export { columnName } from './skills/arm-columns.js';
export type { ArmSet, LoadedArm } from './skills/load-arms.js';
export { skillPlacement } from './skills/skill-placement.js';
export { type CellRule, cellPasses, describeCellRule } from './stats/cell-rule.js';
export type { CaseLocation } from './suite/locate.js';
export type { Case, Suite } from './suite/schema.js';
export { withSuiteSettings } from './suite/suite-settings.js';
export { settleDeferredRemovals } from './workspace/deferred-removal.js';
