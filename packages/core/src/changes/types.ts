/** How one path of the workspace differs between the snapshot after setup and the workspace the agent left. */
export type ChangeStatus = 'added' | 'modified' | 'deleted';

/** One changed path of the workspace (a file or a link; directories are not listed). */
export interface ChangedFile {
  /** Relative to the workspace, `/`-separated. */
  path: string;
  status: ChangeStatus;
  /** Lines added and removed in the unified diff; absent for binary and too-large files. */
  linesAdded?: number;
  linesRemoved?: number;
  /** Named in the diff, not inlined: the content is not text (a NUL byte in its first 8 KiB). */
  binary?: true;
  /** Named in the diff, not inlined: larger than the suite's `changes.maxFileKB`. */
  tooLarge?: true;
  /** Its permission bits changed, e.g. `644 → 755` (content may be the same). */
  modeChange?: string;
  /** A symbolic link on one side, or both: its target is compared, never followed. */
  symlink?: true;
}

/**
 * What the agent changed in its workspace: every added, modified and deleted file, counted, with
 * lines added and removed, and the unified diff written to `changes.diff` beside the trial's logs.
 */
export interface WorkspaceChanges {
  added: number;
  modified: number;
  deleted: number;
  /** Over the text files inlined in the diff. */
  linesAdded: number;
  linesRemoved: number;
  /** The changed files, sorted by path, at most `MAX_LISTED_FILES`; `unlisted` counts the rest. */
  files: ChangedFile[];
  unlisted?: number;
  /** The diff file as the report names it (relative to the Vitest root); absent when logs are off. */
  file?: string;
  /** Bytes of the diff as written. */
  diffBytes: number;
  /** The diff was cut at `changes.maxDiffKB`: it says so at its end. */
  truncated?: true;
  /** Patterns of paths left out of the comparison: `.git`, always, then the suite's `changes.exclude`. */
  excluded?: string[];
}
