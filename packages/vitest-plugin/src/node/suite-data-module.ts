import { createHash } from 'node:crypto';
import type { SuiteModuleData } from '../runtime/define-suite.js';

// A suite's data (its cases, prompts and checks, and where each case starts) is a module of its own,
// which the suite's test module imports. Vite gives every module it serves to a worker a source map
// of its own, a segment at each word boundary of the code, and an AST of it: over a suite's data
// inlined as an object literal, that cost the main process megabytes per hundred cases at every run.
// The data module is one string literal, parsed at import, with an empty source map, which Vite keeps
// as it is: nothing in it needs mapping, and its cost no longer grows with the number of cases.

/** The query that marks a suite's data module; its value is the version of the suite's text. */
const DATA_QUERY = 'gz-bench-data';

/** What the load hook returns for a data module. */
export interface SuiteDataModule {
  code: string;
  map: { mappings: '' };
}

/** The version of a suite's text that a test module was generated from. */
export function suiteVersion(source: string): string {
  return createHash('sha256').update(source, 'utf8').digest('hex').slice(0, 16);
}

/** The id that a suite's test module imports its data by. */
export function suiteDataId(file: string, version: string): string {
  return `${file}?${DATA_QUERY}=${version}`;
}

/** The version a data module's id asks for, or undefined when `id` is not a data module's. */
export function dataVersionOf(id: string): string | undefined {
  const query = id.indexOf('?');
  if (query === -1) return undefined;
  return new URLSearchParams(id.slice(query + 1)).get(DATA_QUERY) ?? undefined;
}

/** The data module of a suite: its data as one JSON string literal. */
export function generateSuiteDataModule(data: SuiteModuleData): SuiteDataModule {
  return { code: `export default JSON.parse(${JSON.stringify(JSON.stringify(data))});\n`, map: { mappings: '' } };
}

/**
 * The data modules generated with their test modules, until a worker asks for them: the suite is then
 * not read and validated a second time. One per suite file at most; a version no longer held (another
 * project's worker asking again) is generated anew by the caller.
 */
export class SuiteDataModules {
  readonly #pending = new Map<string, { version: string; module: SuiteDataModule }>();

  remember(file: string, version: string, module: SuiteDataModule): void {
    this.#pending.set(file, { version, module });
  }

  /** The module of `file` at `version`, handed over once. */
  take(file: string, version: string): SuiteDataModule | undefined {
    const entry = this.#pending.get(file);
    if (entry?.version !== version) return undefined;
    this.#pending.delete(file);
    return entry.module;
  }
}
