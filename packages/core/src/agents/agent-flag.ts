import type { AgentDefinition } from './definition.js';
import { nearestName } from './nearest-name.js';
import { isPresetName, PRESET_NAMES, preset, unknownPresetMessage } from './preset.js';

/** Raised for an `--agent` value that gz-bench cannot use; the message says why and how to write it. */
export class AgentFlagError extends Error {
  readonly code = 'GZ_BENCH_INVALID_AGENT';
  override name = 'AgentFlagError';
}

const NAME = /^[A-Za-z0-9][\w.:@/+-]*$/;
const REFERENCE = /^([A-Za-z][\w-]*)(?::(\S+))?$/;
const FORMS = 'write --agent PRESET, PRESET:MODEL, NAME=PRESET, NAME=PRESET:MODEL or NAME=TEMPLATE';

/**
 * Reads one `--agent` value: `PRESET` and `PRESET:MODEL` (named `PRESET` and `PRESET:MODEL`),
 * `NAME=PRESET[:MODEL]`, or `NAME=TEMPLATE`, a command template of the user's own. A value after `=`
 * is a preset reference when it is a known preset's name, optionally with `:MODEL`, and has no
 * whitespace; anything else is a template. Duplicate names are for the caller to refuse.
 */
export function parseAgentFlag(text: string): AgentDefinition {
  const value = text.trim();
  if (value === '') throw new AgentFlagError(`--agent needs a value; ${FORMS}`);
  const equals = value.indexOf('=');
  // `=` before any whitespace separates a name; a bare template (`my-agent --x=1`) has none.
  const named = equals >= 0 && !/\s/.test(value.slice(0, equals));
  if (!named) return presetReference(value, undefined, true);
  const name = value.slice(0, equals).trim();
  const rest = value.slice(equals + 1).trim();
  if (name === '') throw new AgentFlagError(`--agent "${text}" has an empty name before "="; ${FORMS}`);
  if (!NAME.test(name)) {
    throw new AgentFlagError(
      `--agent "${text}": the name "${name}" may hold letters, digits and . _ : @ / + - only, starting with a letter or digit`,
    );
  }
  if (rest === '')
    throw new AgentFlagError(`--agent "${text}" has nothing after "="; give a preset or a command template`);
  const reference = REFERENCE.exec(rest);
  if (reference && isPresetName(reference[1] ?? '')) return presetReference(rest, name, false);
  // `claud-code:haiku` is no command anyone has: a misspelt preset with a model.
  if (reference?.[2] !== undefined && nearestName(reference[1] ?? '', PRESET_NAMES) !== undefined) {
    throw new AgentFlagError(`--agent: ${unknownPresetMessage(reference[1] ?? '')}`);
  }
  return { name, cmd: rest };
}

function presetReference(value: string, name: string | undefined, bare: boolean): AgentDefinition {
  const reference = REFERENCE.exec(value);
  const presetName = reference?.[1];
  if (reference && presetName !== undefined && isPresetName(presetName)) {
    const model = reference[2];
    return preset(presetName, { ...(model === undefined ? {} : { model }), ...(name === undefined ? {} : { name }) });
  }
  // A bare value must be a preset: a template needs a name (`--agent mine='my-agent {{prompt}}'`).
  if (bare) {
    const word = value.split(/[\s:]/)[0] ?? value;
    if (/\s/.test(value) || nearestName(word, PRESET_NAMES) === undefined) {
      throw new AgentFlagError(
        `--agent "${value}" is neither a preset (${PRESET_NAMES.join(', ')}) nor NAME=TEMPLATE; name a command of your own, e.g. --agent mine='${value}'`,
      );
    }
    throw new AgentFlagError(`--agent: ${unknownPresetMessage(word)}`);
  }
  throw new AgentFlagError(`--agent: ${unknownPresetMessage(presetName ?? value)}`);
}
