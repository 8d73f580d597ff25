export {
  type AllowEnvItem,
  allowEnvItems,
  allowEnvMatches,
  allowEnvProblem,
  allowedEnvNames,
  showAllowEnvItem,
} from './allow-env.js';
export { envConstantNameProblem, envConstantsProblem, envConstantValueProblem } from './env-constants.js';
export { ENV_NAME_PATTERN, type EnvScope, isOwnedEnvName, ownedEnvReason } from './env-names.js';
export { type AllowEnvSource, unsetAllowEnvWarnings } from './unset-env.js';
