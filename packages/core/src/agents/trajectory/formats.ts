import type { AgentDefinition } from '../definition.js';
import { nearestName } from '../nearest-name.js';
import { BUILTIN_EXTRACTORS } from '../usage/builtin-extractors.js';
import type { RecordExtractor } from '../usage/reducer.js';

/**
 * The stream formats gz-bench reads trajectories from: the built-in usage extractors that have a
 * trajectory builder (one reader per CLI). A format is added by giving its builtin a `trajectory()`.
 */
export const TRAJECTORY_FORMAT_NAMES: readonly string[] = Object.keys(BUILTIN_EXTRACTORS).filter(
  (name) => BUILTIN_EXTRACTORS[name]?.trajectory !== undefined,
);

/** Raised for a trajectory format gz-bench does not know; the message names the known ones. */
export class TrajectoryFormatError extends Error {
  readonly code = 'GZ_BENCH_UNKNOWN_TRAJECTORY_FORMAT';
  override name = 'TrajectoryFormatError';
}

/** The built-in extractor whose records make the format's trajectory, or undefined for a name that is none. */
export function trajectoryFormat(
  name: string,
): (RecordExtractor & Required<Pick<RecordExtractor, 'trajectory'>>) | undefined {
  const builtin = Object.hasOwn(BUILTIN_EXTRACTORS, name) ? BUILTIN_EXTRACTORS[name] : undefined;
  if (builtin?.trajectory === undefined) return undefined;
  return builtin as RecordExtractor & Required<Pick<RecordExtractor, 'trajectory'>>;
}

/**
 * Checks an agent definition's `trajectory` as a user declared it: a format's name, or `false` for
 * none. Throws a TrajectoryFormatError whose one line starts with `where`.
 */
export function parseTrajectoryFormat(value: unknown, where = 'trajectory'): string | false {
  if (value === false) return false;
  const known = TRAJECTORY_FORMAT_NAMES.join(', ');
  if (typeof value !== 'string') {
    throw new TrajectoryFormatError(`${where}: expected the name of a stream format (${known}) or false`);
  }
  if (trajectoryFormat(value) !== undefined) return value;
  const nearest = nearestName(value, TRAJECTORY_FORMAT_NAMES);
  const hint = nearest === undefined ? '' : ` (did you mean ${nearest}?)`;
  throw new TrajectoryFormatError(`${where}: unknown stream format "${value}"${hint}; the formats are ${known}`);
}

/**
 * The format an agent's trajectory is read in: its own `trajectory`, else its built-in usage
 * extractor's name when that reads one; undefined when it has none (the raw log is all there is).
 */
export function agentTrajectoryFormat(agent: Pick<AgentDefinition, 'trajectory' | 'usage'>): string | undefined {
  if (agent.trajectory === false) return undefined;
  if (agent.trajectory !== undefined) return agent.trajectory;
  const usage = agent.usage;
  if (usage !== undefined && 'builtin' in usage && trajectoryFormat(usage.builtin) !== undefined) return usage.builtin;
  return undefined;
}
