import { type AgentDefinition, AgentFlagError, parseAgentFlag } from '@gz-bench/core';
import { OptionsError } from '../node/options-error.js';
import { resolveAgents } from '../node/resolve-agents.js';
import { parsePassRule } from '../node/resolve-options.js';
import type { AgentOption, PassRule } from '../shared/options.js';
import { UsageError } from './usage-error.js';

/** The flags of `run` that shape each (agent, case) cell: its trials, its rule, its budgets. */
export interface CellFlags {
  trials: number;
  passRule: PassRule;
  unsafe: boolean;
  maxCostUsd: number | undefined;
  maxTokens: number | undefined;
  maxTurns: number | undefined;
}

/** Reads `--trials`, `--pass-rule`, `--unsafe`, `--max-cost-usd`, `--max-tokens` and `--max-turns`. */
export function cellFlags(values: {
  trials?: string;
  'pass-rule'?: string;
  unsafe?: boolean;
  'max-cost-usd'?: string;
  'max-tokens'?: string;
  'max-turns'?: string;
}): CellFlags {
  return {
    trials: values.trials === undefined ? 1 : positiveInteger('--trials', values.trials, 1000),
    passRule:
      values['pass-rule'] === undefined
        ? 'majority'
        : usage(() => parsePassRule('--pass-rule', values['pass-rule'] as string)),
    unsafe: values.unsafe === true,
    maxCostUsd:
      values['max-cost-usd'] === undefined ? undefined : positiveAmount('--max-cost-usd', values['max-cost-usd']),
    maxTokens:
      values['max-tokens'] === undefined
        ? undefined
        : positiveInteger('--max-tokens', values['max-tokens'], Number.MAX_SAFE_INTEGER),
    maxTurns:
      values['max-turns'] === undefined
        ? undefined
        : positiveInteger('--max-turns', values['max-turns'], Number.MAX_SAFE_INTEGER),
  };
}

/**
 * The agents of `--agent` flags, in order: `NAME=TEMPLATE` names a command of your own, `PRESET`,
 * `PRESET:MODEL`, `NAME=PRESET` and `NAME=PRESET:MODEL` a preset. Names must differ.
 */
export function resolveCliAgents(flags: readonly string[]): AgentDefinition[] {
  const agents: Record<string, AgentOption> = {};
  for (const flag of flags) {
    let definition: AgentDefinition;
    try {
      definition = parseAgentFlag(flag);
    } catch (error) {
      if (error instanceof AgentFlagError) throw new UsageError(error.message);
      throw error;
    }
    if (Object.hasOwn(agents, definition.name)) {
      throw new UsageError(
        `--agent: two agents are named "${definition.name}"; give one of them another name (NAME=…)`,
      );
    }
    agents[definition.name] = definition;
  }
  if (flags.length === 0) return [];
  return usage(() => resolveAgents(agents, undefined, undefined));
}

/** `-t`'s pattern, checked as a regular expression the way Vitest will read it. */
export function namePattern(pattern: string | undefined): string | undefined {
  if (pattern === undefined) return undefined;
  try {
    new RegExp(pattern);
  } catch (error) {
    throw new UsageError(`-t needs a regular expression: ${(error as Error).message}`);
  }
  return pattern;
}

/** Runs `read`, turning an option's error into a usage error with the same message. */
function usage<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof OptionsError) throw new UsageError(error.message.replace(/^gz-bench /, ''));
    throw error;
  }
}

function positiveInteger(flag: string, raw: string, max: number): number {
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value < 1 || value > max) {
    throw new UsageError(`${flag} must be a positive integer${max < 1e6 ? ` up to ${max}` : ''}, got "${raw}"`);
  }
  return value;
}

function positiveAmount(flag: string, raw: string): number {
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value <= 0) {
    throw new UsageError(`${flag} must be a positive number, got "${raw}"`);
  }
  return value;
}
