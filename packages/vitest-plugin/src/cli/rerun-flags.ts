import { resolve } from 'node:path';
import { EarlierReportError } from '@gz-bench/core';
import { type RerunScope, readEarlierRun } from '../node/rerun-report.js';
import { UsageError } from './usage-error.js';

/** `--retry-errors` alone means once; `--retry-errors n` or `--retry-errors=n` says how many times. */
export const DEFAULT_RETRY_ERRORS = 1;

const MAX_RETRY_ERRORS = 10;

/**
 * Gives a bare `--retry-errors` its default value, so the strict parser reads it as a flag with a
 * value: its value is optional, and a suite file after it is not a count.
 */
export function withRetryErrorsValue(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    if (arg === '--') {
      out.push(...args.slice(index));
      break;
    }
    out.push(arg);
    if (arg === '--retry-errors' && !/^\d+$/.test(args[index + 1] ?? '')) out.push(String(DEFAULT_RETRY_ERRORS));
  }
  return out;
}

/** The count of `--retry-errors`: 0 without the flag. */
export function retryErrorsFlag(raw: string | undefined): number {
  if (raw === undefined) return 0;
  const count = Number(raw);
  if (!/^\d+$/.test(raw) || count > MAX_RETRY_ERRORS) {
    throw new UsageError(`--retry-errors takes a whole number from 0 to ${MAX_RETRY_ERRORS}, got "${raw}"`);
  }
  return count;
}

/**
 * Checks the report of `--only-failed` before anything runs: one that cannot be read, is not a
 * gz-bench report, or is another run's, is a usage error. Returns its absolute path.
 */
export async function onlyFailedFlag(given: string | undefined, scope: RerunScope): Promise<string | undefined> {
  if (given === undefined) return undefined;
  const path = resolve(given);
  try {
    await readEarlierRun(path, given, scope);
  } catch (error) {
    if (error instanceof EarlierReportError) throw new UsageError(error.message);
    throw error;
  }
  return path;
}
