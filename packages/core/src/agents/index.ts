export type * from './definition.js';
