export type * from './checks/types.js';
export type * from './process/types.js';
export type * from './report/model.js';
export * from './suite/schema.js';
