export { compareWorkspace } from './compare.js';
export { type ExcludeMatcher, excludeMatcher } from './exclude.js';
export { recordChanges } from './record.js';
export { MAX_LISTED_FILES, renderChanges } from './render-diff.js';
export {
  ALWAYS_EXCLUDED,
  type ChangesSetting,
  DEFAULT_MAX_DIFF_KB,
  DEFAULT_MAX_FILE_KB,
  type ResolvedChanges,
  resolveChanges,
} from './settings.js';
export {
  changesFence,
  type FixtureOrigin,
  type SnapshotPlan,
  takeSnapshot,
  type WorkspaceSnapshot,
} from './snapshot.js';
export type { ChangedFile, ChangeStatus, WorkspaceChanges } from './types.js';
