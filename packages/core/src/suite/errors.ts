import { resolve } from 'node:path';

/** Stable codes of the ways a suite file can be unusable; match on these, never on messages. */
export type SuiteErrorCode =
  | 'GZ_BENCH_INVALID_SUITE'
  | 'GZ_BENCH_SUITE_NOT_FOUND'
  | 'GZ_BENCH_SUITE_UNREADABLE'
  | 'GZ_BENCH_SUITE_INVALID_JSON'
  | 'GZ_BENCH_NOT_A_SUITE'
  | 'GZ_BENCH_INVALID_TASK';

/** What a `SuiteError` is made of; the message is composed from these so every error reads alike. */
export interface SuiteErrorOptions {
  code: SuiteErrorCode;
  /** The complete message without the file prefix. */
  detail: string;
  /** The suite file as the caller named it; shown in the message as given. */
  file?: string | undefined;
  /** Whether the message starts with `<file>: `. @default true */
  filePrefix?: boolean | undefined;
  /** Absolute path of the file for `SuiteError.file`. @default file resolved against process.cwd() */
  absoluteFile?: string | undefined;
  /** Where in the suite the problem is, e.g. `cases[0].checks[2].pattern`; empty for the whole suite. */
  path?: string | undefined;
  /** 1-based line and column in the file, when known. */
  line?: number | undefined;
  column?: number | undefined;
  cause?: unknown;
}

/** A suite file that cannot be used: its one-line message says which file, where, and what is wrong. */
export class SuiteError extends Error {
  override readonly name = 'SuiteError';
  /** Stable code for programs (the CLI maps all of them to exit code 2). */
  readonly code: SuiteErrorCode;
  /** Absolute path of the suite file, or undefined for data that came from no file. */
  readonly file: string | undefined;
  /** Where in the suite the problem is, e.g. `cases[0].checks[2].pattern`; empty for the whole suite. */
  readonly path: string;
  /** The message without the file prefix. */
  readonly detail: string;
  /** 1-based line in the file, when known (invalid JSON). */
  readonly line: number | undefined;
  /** 1-based column in the file, when known (invalid JSON). */
  readonly column: number | undefined;

  constructor(options: SuiteErrorOptions) {
    const prefix = options.file === undefined || options.filePrefix === false ? '' : `${options.file}: `;
    super(`${prefix}${options.detail}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = options.code;
    this.file = options.absoluteFile ?? (options.file === undefined ? undefined : resolve(options.file));
    this.path = options.path ?? '';
    this.detail = options.detail;
    this.line = options.line;
    this.column = options.column;
  }
}

/** Where a suite came from: `file` as messages show it, and its absolute path. */
export interface SuiteOrigin {
  file?: string | undefined;
  absoluteFile?: string | undefined;
}

/** The suite is valid JSON but breaks the schema at `path` (empty for the root). */
export function invalidSuiteError(path: string, reason: string, origin: SuiteOrigin = {}): SuiteError {
  const where = path === '' ? 'invalid suite' : `invalid suite at ${path}`;
  return new SuiteError({ ...origin, code: 'GZ_BENCH_INVALID_SUITE', path, detail: `${where}: ${reason}` });
}

/** The suite text is not JSON; `line` and `column` are 1-based, as editors show them. */
export function invalidJsonError(
  position: { line: number; column: number } | undefined,
  reason: string,
  origin: SuiteOrigin = {},
  cause?: unknown,
): SuiteError {
  const where =
    position === undefined ? 'invalid JSON' : `invalid JSON at line ${position.line}, column ${position.column}`;
  return new SuiteError({
    ...origin,
    code: 'GZ_BENCH_SUITE_INVALID_JSON',
    detail: `${where}: ${reason}`,
    line: position?.line,
    column: position?.column,
    cause,
  });
}

/** Turns a failed read of `origin.file` into a SuiteError that names the file and the fix, not errno noise. */
export function readSuiteError(cause: unknown, origin: Required<SuiteOrigin>): SuiteError {
  const errno = (cause as NodeJS.ErrnoException | undefined)?.code;
  // The detail names the file itself: "file not found: x" reads better than "x: file not found".
  const base = { ...origin, filePrefix: false, cause };
  if (errno === 'ENOENT' || errno === 'ENOTDIR') {
    return new SuiteError({ ...base, code: 'GZ_BENCH_SUITE_NOT_FOUND', detail: `file not found: ${origin.file}` });
  }
  const reason =
    errno === 'EISDIR'
      ? 'it is a directory; name a .json suite file'
      : errno === 'EACCES' || errno === 'EPERM'
        ? 'permission denied'
        : (errno ?? (cause instanceof Error ? cause.message : String(cause)));
  return new SuiteError({
    ...base,
    code: 'GZ_BENCH_SUITE_UNREADABLE',
    detail: `cannot read suite file ${origin.file}: ${reason}`,
  });
}
