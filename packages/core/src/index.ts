export * from './case/index.js';
export * from './checks/index.js';
export * from './process/index.js';
export * from './regex/index.js';
export * from './report/index.js';
export * from './suite/index.js';
export * from './template/index.js';
export * from './workspace/index.js';
