import type { Usage } from '../../report/model.js';
import type { UsageField } from '../definition.js';

/** Every field an extractor can fill, in report order. */
export const USAGE_FIELDS: readonly UsageField[] = [
  'inputTokens',
  'outputTokens',
  'cachedInputTokens',
  'cacheWriteTokens',
  'costUsd',
  'model',
  'turns',
  'toolCalls',
];

/** Whether `name` is a usage field. */
export function isUsageField(name: string): name is UsageField {
  return (USAGE_FIELDS as readonly string[]).includes(name);
}

/** Fields that hold counts and amounts, which `sum` adds up; `model` is the only text field. */
export type NumericUsageField = Exclude<UsageField, 'model'>;

/**
 * A usage figure as an agent printed it: a finite number ≥ 0, or a string of digits (`1,234` and
 * `1_234` read as 1234, `0.0123` as a decimal). Anything else is no figure.
 */
export function usageNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const plain = value.trim().replace(/[,_](?=\d{3}\b)/g, '');
  if (!/^\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(plain)) return undefined;
  const number = Number(plain);
  return Number.isFinite(number) ? number : undefined;
}

/** Adds figures of one field, keeping floating-point noise out of costs (0.1 + 0.2 is 0.3 here). */
export function addFigures(a: number | undefined, b: number): number {
  if (a === undefined) return b;
  return Number((a + b).toPrecision(15));
}

/** The usage with costSource set when a cost is present, or undefined when nothing was found. */
export function finishUsage(usage: Usage): Usage | undefined {
  const entries = Object.entries(usage).filter(([, value]) => value !== undefined);
  if (entries.length === 0) return undefined;
  const finished: Usage = {};
  for (const field of USAGE_FIELDS) {
    const value = usage[field];
    if (value !== undefined) Object.assign(finished, { [field]: value });
  }
  // Every cost gz-bench reads is what the agent printed: its own estimate, never a provider's bill.
  if (finished.costUsd !== undefined) finished.costSource = 'agent';
  return finished;
}
