export { DEFAULT_OUTPUT_LIMIT_BYTES, outputTail } from './output-buffer.js';
export { DEFAULT_KILL_GRACE_MS, runProcess } from './run-process.js';
export type * from './types.js';
