export * from './script.js';
export { type ModelEndpoint, startModelEndpoint } from './server.js';
