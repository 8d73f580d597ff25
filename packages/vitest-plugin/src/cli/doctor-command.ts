import { PRESET_NAMES, preset } from '@gz-bench/core';
import { type AgentReadiness, agentReadiness, processContext } from './agent-readiness.js';
import { resolveCliAgents } from './cell-flags.js';
import { engineReadiness } from './engine-readiness.js';
import { EXIT } from './exit-codes.js';
import { parseStrict } from './parse-args.js';
import { UsageError } from './usage-error.js';

/**
 * `gz-bench doctor [--agent …]…`: for every preset (or the agents named), whether its program is
 * installed, its version, the exact command gz-bench will run, which of the variables it may use are
 * set (names only) and what is missing. Exit 0 when every agent is ready, 1 otherwise.
 */
export async function doctorCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseStrict<{ agent?: string[] }>(args, {
    agent: { type: 'string', multiple: true },
  });
  if (positionals.length > 0) throw new UsageError(`doctor takes no arguments but --agent (got "${positionals[0]}")`);
  const agents = values.agent === undefined ? PRESET_NAMES.map((name) => preset(name)) : resolveCliAgents(values.agent);
  const context = processContext();
  const found = await Promise.all(agents.map((agent) => agentReadiness(agent, context)));
  // Engines inform; only the agents decide the exit code. The count stays the last line.
  process.stdout.write(renderReadiness(found, await engineReadiness()));
  return found.every((agent) => agent.ready) ? EXIT.passed : EXIT.failed;
}

/** The doctor's report: a block per agent, then `more` (the engines' block), then a count. */
export function renderReadiness(agents: readonly AgentReadiness[], more?: string): string {
  const blocks = agents.map((agent) => {
    const lines = [`${agent.name}  ${agent.ready ? 'ready' : 'NOT READY'}`];
    const row = (label: string, text: string) => lines.push(`  ${label.padEnd(9)}${text}`);
    if (agent.found) {
      const where = agent.found.via === 'node_modules' ? ' (node_modules/.bin)' : '';
      row('program', `${agent.found.path}${where}`);
      if (agent.preset !== undefined) row('version', agent.version ?? `unknown: ${agent.versionProblem ?? ''}`);
    } else row('program', `${agent.program || '?'}: not found`);
    row('command', agent.cmd);
    if (agent.unsafe.length > 0)
      row('unsafe', `${agent.unsafe.join(', ')}: turns its approval prompts off (runs with --unsafe only)`);
    if (agent.env.length > 0) {
      row(
        'env',
        agent.env
          .map(({ entry, set }) =>
            entry.endsWith('*')
              ? `${entry} (${set.length === 0 ? 'none set' : `${set.join(', ')} set`})`
              : `${entry} ${set.length > 0 ? 'set' : 'not set'}`,
          )
          .join(', '),
      );
    }
    if (agent.login.length > 0) {
      row('login', agent.login.map(({ path, exists }) => `~/${path} ${exists ? 'found' : 'not found'}`).join(', '));
    }
    if (agent.missing.length > 0) row('missing', agent.missing.join('; '));
    return lines.join('\n');
  });
  const ready = agents.filter((agent) => agent.ready).length;
  const noun = agents.length === 1 ? 'agent' : 'agents';
  const all = more === undefined ? blocks : [...blocks, more.trimEnd()];
  return `${all.join('\n\n')}\n\n${agents.length} ${noun}: ${ready} ready, ${agents.length - ready} not ready\n`;
}
