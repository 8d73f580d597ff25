// Loaded by each worker of gz-bench's own pool (`gz-bench run`) as Node starts it (`--import`): the
// harness's modules, which the worker's first case would otherwise compile only once Vitest handed it
// its suite file. The worker started ahead loads them while the CLI is still loading Vitest, with
// a core of its own to do it on; the runtime later imports the same URLs, which are then loaded.
// Vitest itself is left to the worker, which loads it in its own order.
import '@gz-bench/core/run';
