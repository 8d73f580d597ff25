// Checker integrity: what keeps the checks of a case honest whatever the agent does. Protected paths
// are checker files the agent may not change, or a check that runs them would grade whatever the agent
// wrote: they are validated against the fixture before any case runs, and restored from it after the
// agent and before the checks.

export { NO_OP_COMMAND, solutionCommand } from './oracle.js';
export { noOpVerdict, ORACLE_AGENTS, type OracleCase, type OracleProblem, oracleProblems } from './oracle-verdict.js';
export { ProtectError, type ProtectErrorCode } from './protect-error.js';
export { assertProtectable, normalizeProtectedPath, protectedPaths } from './protected-paths.js';
export { type RestoreResult, restoreProtected } from './restore.js';
export { suiteSecretPaths } from './verifiers.js';
