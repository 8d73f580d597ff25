// What a case's `changes` setting resolves to: plain values, apart from the suite's zod schema, so that
// running a case loads no schema library.

/** A case's `changes` setting as the suite writes it (see the suite schema), or `false` to turn it off. */
export type ChangesSetting =
  | false
  | {
      /** Paths left out: a name (`node_modules`) at any depth, or a path from the workspace root (`dist/**`). */
      exclude?: string[];
      /** Files larger than this many KiB are named in the diff, not inlined. */
      maxFileKB?: number;
      /** The whole diff is cut at this many KiB, and says so at its end. */
      maxDiffKB?: number;
    };

/** The `changes` setting with every field present. */
export interface ResolvedChanges {
  /** The user's patterns, after the ones always left out (`ALWAYS_EXCLUDED`). */
  exclude: string[];
  maxFileBytes: number;
  maxDiffBytes: number;
}

/**
 * Left out of every comparison: a `.git` is the baseline history of a `git: true` case (which the
 * harness made, and the agent's commits rewrite) or one that setup or the agent made; its object
 * files are compressed blobs that no diff of the work would show usefully. The agent's edits to the
 * tracked files show as edits of those files.
 */
export const ALWAYS_EXCLUDED = ['.git'] as const;

/** Files up to this size are inlined in the diff by default (`changes.maxFileKB`). */
export const DEFAULT_MAX_FILE_KB = 256;

/** The diff is cut at this size by default (`changes.maxDiffKB`). */
export const DEFAULT_MAX_DIFF_KB = 1024;

/** The `changes` setting resolved, or undefined when it is `false` (nothing is compared). */
export function resolveChanges(setting: ChangesSetting | undefined): ResolvedChanges | undefined {
  if (setting === false) return undefined;
  const own = setting ?? {};
  return {
    exclude: [...ALWAYS_EXCLUDED, ...(own.exclude ?? []).filter((pattern) => !isAlwaysExcluded(pattern))],
    maxFileBytes: Math.round((own.maxFileKB ?? DEFAULT_MAX_FILE_KB) * 1024),
    maxDiffBytes: Math.round((own.maxDiffKB ?? DEFAULT_MAX_DIFF_KB) * 1024),
  };
}

function isAlwaysExcluded(pattern: string): boolean {
  return (ALWAYS_EXCLUDED as readonly string[]).includes(pattern);
}
