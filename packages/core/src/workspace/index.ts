export { createWorkspace, releaseWorkspace, removeWorkspace, WORKSPACE_PREFIX } from './workspace.js';
