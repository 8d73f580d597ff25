import {
  type AgentDefinition,
  agentSettingsProblem,
  assertValidTemplate,
  parseTrajectoryFormat,
  parseUsageExtractor,
  TemplateError,
  TrajectoryFormatError,
  UsageExtractorError,
  unsafeAgents,
  unsafeGateMessage,
} from '@gz-bench/core';
import picomatch from 'picomatch';
import type { AgentOption } from '../shared/options.js';
import { OptionsError } from './options-error.js';

// Agent names head describe blocks, report rows and log directories: short, printable, one line.
const MAX_AGENT_NAME = 64;

/**
 * The agents of a run from the `agents` option, in the order given, each validated, then narrowed to
 * those `filter` names (names or globs). Empty when there is no `agents` option: the run has its one `cmd`.
 */
export function resolveAgents(
  agents: Record<string, AgentOption> | undefined,
  filter: readonly string[] | undefined,
  cmd: string | undefined,
): AgentDefinition[] {
  if (agents === undefined) {
    if (filter !== undefined && filter.length > 0) {
      throw new OptionsError('gz-bench option "agentFilter" (GZ_BENCH_AGENTS) picks among "agents", and none are set');
    }
    return [];
  }
  if (typeof agents !== 'object' || agents === null || Array.isArray(agents)) {
    throw new OptionsError('gz-bench option "agents" must be an object of agents by name');
  }
  const entries = Object.entries(agents);
  if (entries.length === 0) throw new OptionsError('gz-bench option "agents" names no agent');
  if (cmd !== undefined) {
    throw new OptionsError(
      'gz-bench options "cmd" and "agents" are both set: name the command as one of the agents instead',
    );
  }
  const all = entries.map(([name, option]) => agentDefinition(name, option));
  return filterAgents(all, filter);
}

function agentDefinition(name: string, option: AgentOption): AgentDefinition {
  assertAgentName(name);
  const where = `gz-bench agent "${name}"`;
  const definition: AgentDefinition =
    typeof option === 'string' ? { name, cmd: option } : { ...(option as AgentDefinition), name };
  if (typeof definition.cmd !== 'string' || definition.cmd.trim() === '') {
    throw new OptionsError(`${where} must have a non-empty command template ("cmd")`);
  }
  try {
    assertValidTemplate(definition.cmd);
  } catch (error) {
    if (error instanceof TemplateError) throw new OptionsError(`${where}: ${error.message}`);
    throw error;
  }
  const settings = agentSettingsProblem(definition);
  if (settings !== undefined) throw new OptionsError(`${where}: ${settings}`);
  if (definition.usage !== undefined) {
    try {
      parseUsageExtractor(definition.usage, `${where}: "usage"`);
    } catch (error) {
      if (error instanceof UsageExtractorError) throw new OptionsError(error.message);
      throw error;
    }
  }
  if (definition.trajectory !== undefined) {
    try {
      parseTrajectoryFormat(definition.trajectory, `${where}: "trajectory"`);
    } catch (error) {
      if (error instanceof TrajectoryFormatError) throw new OptionsError(error.message);
      throw error;
    }
  }
  const { concurrency } = definition;
  if (concurrency !== undefined && (!Number.isSafeInteger(concurrency) || concurrency < 1)) {
    throw new OptionsError(`${where}: "concurrency" must be a positive integer, got ${String(concurrency)}`);
  }
  return definition;
}

function assertAgentName(name: string): void {
  if (name.trim() === '' || name !== name.trim()) {
    throw new OptionsError(`gz-bench agent names must be non-empty, without spaces around them, got "${name}"`);
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(name) || name.length > MAX_AGENT_NAME) {
    throw new OptionsError(
      `gz-bench agent name ${JSON.stringify(name)} must be one line of at most ${MAX_AGENT_NAME} characters`,
    );
  }
}

/** The agents a filter picks, in their own order; a filter entry that picks none is an error that lists the names. */
function filterAgents(agents: AgentDefinition[], filter: readonly string[] | undefined): AgentDefinition[] {
  if (filter === undefined || filter.length === 0) return agents;
  const names = agents.map((agent) => agent.name);
  const picked = new Set<string>();
  for (const entry of filter) {
    const matches = picomatch(entry);
    const found = names.filter((name) => name === entry || matches(name));
    if (found.length === 0) {
      throw new OptionsError(`gz-bench: no agent matches "${entry}"; the agents are ${names.join(', ')}`);
    }
    for (const name of found) picked.add(name);
  }
  return agents.filter((agent) => picked.has(agent.name));
}

/**
 * Stops a run, before anything starts, whose agents (or `cmd`) turn off their own approval prompts,
 * unless `unsafe` allows it; the message names each agent and its flags.
 */
export function assertSafeAgents(agents: readonly AgentDefinition[], cmd: string | undefined, unsafe: boolean): void {
  if (unsafe) return;
  const found = unsafeAgents([...agents, ...(cmd === undefined ? [] : [{ name: 'cmd', cmd }])]);
  if (found.length > 0) throw new OptionsError(`gz-bench: ${unsafeGateMessage(found)}`);
}
