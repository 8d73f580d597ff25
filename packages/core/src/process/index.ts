export { MAX_ARG_STRLEN } from './arg-limits.js';
export { type CommandLaunch, type CommandLaunchOptions, type Containment, commandLaunch } from './command-launch.js';
export { type DiskUsage, diskUsage } from './disk-usage.js';
export { findOnPath } from './find-on-path.js';
export { dieWith } from './guardian.js';
export { DEFAULT_OUTPUT_LIMIT_BYTES, outputTail } from './output-buffer.js';
export { CONTAINMENT_ENV, type PidNamespaceProbe, probePidNamespace } from './pid-namespace.js';
export { DEFAULT_KILL_GRACE_MS, MAX_TIMER_MS, runProcess } from './run-process.js';
export {
  isSandboxMode,
  probeSandbox,
  type ResolvedSandbox,
  resolveSandbox,
  SANDBOX_MODES,
  type SandboxArgvOptions,
  SandboxError,
  type SandboxMode,
  type SandboxProbe,
  sandboxArgv,
} from './sandbox.js';
export type * from './types.js';
