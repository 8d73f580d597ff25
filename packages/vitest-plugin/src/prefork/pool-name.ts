/** The name of gz-bench's fork pool (prefork-pool.ts): Vitest's forks, the first of them started ahead. */
export const PREFORK_POOL = 'gz-bench-forks';
