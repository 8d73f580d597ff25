export { createWorkspace, removeWorkspace, WORKSPACE_PREFIX } from './workspace.js';
