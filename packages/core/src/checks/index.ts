export { agentExitCheck } from './agent-exit.js';
export { COMMAND_OUTPUT_TAIL_CHARS, commandCheck } from './command.js';
export { fileContainsCheck, MAX_FILE_CONTAINS_BYTES } from './file-contains.js';
export { fileExistsCheck } from './file-exists.js';
export { fileNotExistsCheck } from './file-not-exists.js';
export { outputMatchesCheck } from './output-matches.js';
export { type CheckRegistry, checkRegistry, evaluateCheck, evaluateChecks } from './registry.js';
export type * from './types.js';
export { resolveWorkspacePath, type WorkspacePath } from './workspace-path.js';
