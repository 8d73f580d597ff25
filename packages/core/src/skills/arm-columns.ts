import type { Suite } from '../suite/schema.js';

// Arms multiply with agents as agents multiply with cases: each (agent, arm) pair is one column of
// the scoreboard, one describe block of Vitest's (`claude-code/v1`) and one key of baselines and
// resumes. Arm names hold no `/`, so the arm of a column is what follows its last `/`.

/** One column of a run: an agent, an arm, both, or neither (the run's one `cmd`). */
export interface Column {
  agentName?: string | undefined;
  arm?: string | undefined;
}

/** The name of a column: `agent/arm`, `agent`, `arm`, or undefined for neither. */
export function columnName(column: Column): string | undefined {
  const { agentName, arm } = column;
  if (arm === undefined) return agentName;
  return agentName === undefined ? arm : `${agentName}/${arm}`;
}

/**
 * The columns of a suite: each agent (or the run's one `cmd`) once per arm, the arms of the run
 * (`runArms`) where it names them, else the suite's own.
 */
export function suiteColumns(
  suite: Pick<Suite, 'arms'> | undefined,
  agents: readonly string[],
  runArms?: readonly string[],
): Column[] {
  const arms = runArms ?? (suite?.arms === undefined ? [] : Object.keys(suite.arms));
  const agentNames = agents.length > 0 ? agents : [undefined];
  return agentNames.flatMap((agentName) => {
    const agent = agentName === undefined ? {} : { agentName };
    return arms.length === 0 ? [agent] : arms.map((arm) => ({ ...agent, arm }));
  });
}

/** The column a describe block's name stands for, given whether the run names agents and arms. */
export function parseColumn(name: string | undefined, shape: { agents: boolean; arms: boolean }): Column {
  if (name === undefined) return {};
  if (!shape.arms) return { agentName: name };
  if (!shape.agents) return { arm: name };
  const slash = name.lastIndexOf('/');
  return { agentName: name.slice(0, slash), arm: name.slice(slash + 1) };
}
