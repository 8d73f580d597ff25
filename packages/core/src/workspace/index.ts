export { AGENT_GIT_CONFIG, AGENT_GIT_IDENTITY, agentGitEnv } from './agent-git.js';
export { createRunCacheDir, type RunCacheDir } from './cache-dir.js';
export {
  assertWorkspaceIntact,
  CASE_AREA_PREFIX,
  type CaseArea,
  createCaseArea,
  releaseCaseArea,
  removeCaseArea,
} from './case-area.js';
export { homePathProblem, type SeedHomeOptions, seedCaseHome } from './case-home.js';
export {
  type CopyFixtureOptions,
  copyFixture,
  type FixtureCopy,
  FixtureError,
  type SkippedEntry,
} from './copy-fixture.js';
export { createGitBaseline, GIT_SAFE_ENV, GitBaselineError, gitSafeEnv } from './git-baseline.js';
export { createOwnedDir, type OwnedDirKind } from './owned-dirs.js';
export { writePromptFile } from './prompt-file.js';
export { RemoveTreeError, removeTree } from './remove-tree.js';
export { type CleanStaleAreasResult, cleanStaleAreas } from './stale-areas.js';
export { assertUsableTempDir, TempDirError, tempDirFault } from './temp-dir.js';
