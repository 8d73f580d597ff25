import { SuiteError } from '../suite/errors.js';

/**
 * A task directory that cannot be used, as one line naming the file and the field: `tasks/x/task.toml:
 * invalid task at [agent].timeout_sec: must be a positive number of seconds`. A SuiteError, so the CLI
 * exits 2 as for a bad suite.
 */
export function taskError(file: string, field: string | undefined, reason: string, cause?: unknown): SuiteError {
  const where = field === undefined ? 'invalid task' : `invalid task at ${field}`;
  return new SuiteError({
    code: 'GZ_BENCH_INVALID_TASK',
    file,
    detail: `${where}: ${reason}`,
    ...(field !== undefined && { path: field }),
    ...(cause !== undefined && { cause }),
  });
}

/** Reads typed fields of a parsed TOML or YAML table, failing with the file and field. */
export class TaskFields {
  constructor(
    private readonly file: string,
    private readonly table: Record<string, unknown>,
    private readonly prefix: string,
  ) {}

  /** A nested table, empty when absent. */
  section(name: string): TaskFields {
    const value = this.table[name];
    if (value === undefined || value === null) return new TaskFields(this.file, {}, this.#field(name));
    if (typeof value !== 'object' || Array.isArray(value)) throw this.#error(name, 'must be a table');
    return new TaskFields(this.file, value as Record<string, unknown>, this.#field(name));
  }

  string(name: string): string | undefined {
    const value = this.table[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string') throw this.#error(name, 'must be a string');
    return value;
  }

  /** A bound in seconds: positive and finite. */
  seconds(name: string): number | undefined {
    const value = this.table[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
      throw this.#error(name, 'must be a positive number of seconds');
    }
    return value;
  }

  boolean(name: string): boolean | undefined {
    const value = this.table[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'boolean') throw this.#error(name, 'must be true or false');
    return value;
  }

  strings(name: string): string[] {
    const value = this.table[name];
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value) || !value.every((each) => typeof each === 'string')) {
      throw this.#error(name, 'must be a list of strings');
    }
    return value;
  }

  /** A table of strings (an env): numbers and booleans are written as TOML and YAML users mean them. */
  stringTable(name: string): Record<string, string> {
    const value = this.table[name];
    if (value === undefined || value === null) return {};
    if (typeof value !== 'object' || Array.isArray(value)) throw this.#error(name, 'must be a table of strings');
    const entries = Object.entries(value as Record<string, unknown>).map(([key, each]) => {
      if (!['string', 'number', 'boolean'].includes(typeof each)) {
        throw this.#error(`${name}.${key}`, 'must be a string');
      }
      return [key, String(each)] as const;
    });
    return Object.fromEntries(entries);
  }

  raw(name: string): unknown {
    return this.table[name];
  }

  error(name: string, reason: string): SuiteError {
    return this.#error(name, reason);
  }

  #field(name: string): string {
    return this.prefix === '' ? name : `${this.prefix}.${name}`;
  }

  #error(name: string, reason: string): SuiteError {
    return taskError(this.file, this.#field(name), reason);
  }
}
