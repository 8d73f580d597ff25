import type { DockerEnvironment } from './dockerfile.js';

/** The two task formats gz-bench runs as they are. */
export type TaskFormat = 'harbor' | 'terminal-bench';

/** A task directory as read, before it becomes a case: paths absolute. */
export interface TaskDraft {
  format: TaskFormat;
  /** The task directory; its name is the case id. */
  dir: string;
  instruction: string;
  /** What becomes the hidden verifier: directories merged, files by name, at /tests. */
  verify: string[];
  /** The check's command line, run where the agent ran. */
  check: string;
  /** The reference solution's lines, and the files they use (at /solution). */
  solution?: { lines: string[]; files: string[] };
  agentTimeoutSec?: number;
  checkTimeoutSec?: number;
  difficulty?: string;
  category?: string;
  tags: string[];
  /** Further metadata of the task (its author, its parser). */
  meta: Record<string, string>;
  /** Whether the task lets its commands reach the internet; undefined when it does not say. */
  internet?: boolean;
  /** The build context the environment's `files` are relative to. */
  contextDir: string;
  /** What the host reproduces of the task's Dockerfile, and what it does not. */
  environment: DockerEnvironment;
  /** The task's Dockerfile, built as the case's environment where its base image is here; none: the task has none. */
  dockerfile?: { path: string; ignore: readonly string[] };
  /** What the task needs beyond its Dockerfile that no environment here provides (compose services, harness files). */
  beyondImage: string[];
}
