/** Stable codes of protect failures; match on these, never on messages. */
export type ProtectErrorCode = 'GZ_BENCH_INVALID_PROTECT' | 'GZ_BENCH_WORKSPACE_INVALID';

/**
 * A protected path that cannot be protected (`GZ_BENCH_INVALID_PROTECT`, with the path as given in
 * `path`), or a workspace that is no longer a directory to restore into (`GZ_BENCH_WORKSPACE_INVALID`).
 */
export class ProtectError extends Error {
  override readonly name = 'ProtectError';
  readonly code: ProtectErrorCode;
  /** The protected path as it was given, or the workspace. */
  readonly path: string;

  constructor(code: ProtectErrorCode, path: string, message: string) {
    super(message);
    this.code = code;
    this.path = path;
  }
}
