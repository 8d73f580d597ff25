export { AgentFlagError, parseAgentFlag } from './agent-flag.js';
export type * from './definition.js';
export { isPresetName, PRESET_NAMES, PresetError, type PresetOptions, preset, presetSpec } from './preset.js';
export type { PresetSpec } from './presets/index.js';
export { programOf, shellCommands } from './shell-words.js';
export * from './trajectory/index.js';
export { type UnsafeAgent, unsafeAgents, unsafeFlags, unsafeGateMessage } from './unsafe-flags.js';
export * from './usage/index.js';
