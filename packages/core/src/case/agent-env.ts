import { allowedEnvNames } from '../env/allow-env.js';
import { isOwnedEnvName } from '../env/env-names.js';

/** Variables of the harness that every command gets, when the harness has them. */
export const PASSED_ENV = ['PATH', 'SHELL', 'TERM', 'LANG', 'LC_ALL', 'TZ', 'CI'] as const;

const FALLBACK_PATH = '/usr/local/bin:/usr/bin:/bin';

/** What a case's commands may know of the harness's environment. */
export interface CaseEnvOptions {
  /** The harness's environment. @default process.env */
  source?: NodeJS.ProcessEnv;
  /** The case's own HOME directory. */
  home: string;
  /** The case's own temp directory. */
  tmp: string;
  /** Further variables of the harness to pass on: names, comma-separated lists, `PREFIX_*` patterns. */
  allowEnv?: readonly string[];
  /** Constants (a suite's and case's `env`), over what comes from the harness. */
  constants?: Readonly<Record<string, string>>;
  /** Pass the harness's real HOME instead of the case's. @default false */
  realHome?: boolean;
}

/**
 * The environment of setup, the agent and command checks: a minimal one, so that the harness's API
 * keys, tokens and settings reach an agent only when named. PATH, SHELL, TERM, LANG, LC_ALL, TZ and CI
 * pass through; `allowEnv` adds variables by name or prefix; `constants` are set over them; HOME and
 * TMPDIR (TMP, TEMP) are the case's own, whatever came before.
 */
export function caseEnv(options: CaseEnvOptions): Record<string, string> {
  const source = options.source ?? process.env;
  const env: Record<string, string> = {};
  for (const name of [...PASSED_ENV, ...allowedEnvNames(options.allowEnv ?? [], source)]) {
    const value = source[name];
    if (value !== undefined) env[name] = value;
  }
  env.PATH ??= FALLBACK_PATH;
  env.SHELL ??= '/bin/sh';
  // Validated where they are written; a name gz-bench owns never gets this far, but must not win.
  for (const [name, value] of Object.entries(options.constants ?? {})) if (!isOwnedEnvName(name)) env[name] = value;
  const realHome = options.realHome ? source.HOME : undefined;
  env.HOME = realHome ?? options.home;
  env.TMPDIR = options.tmp;
  env.TMP = options.tmp;
  env.TEMP = options.tmp;
  return env;
}
