import { posix } from 'node:path';

/** Where the sandbox mounts its own file systems: a workspace there would hide or be hidden by them. */
const RESERVED = ['/proc', '/dev', '/sys'];

/** Why `path` cannot be a case's `workdir`, or undefined when it can. */
export function workdirProblem(path: string): string | undefined {
  if (!path.startsWith('/')) return `workdir must be an absolute path, such as "/app"; got ${JSON.stringify(path)}`;
  if (path === '/') return 'workdir may not be / itself; name a directory, such as "/app"';
  if (posix.normalize(path) !== path || path.endsWith('/')) {
    return `workdir must be a plain absolute path (no ., .., // or trailing /); got ${JSON.stringify(path)}`;
  }
  const reserved = RESERVED.find((root) => path === root || path.startsWith(`${root}/`));
  if (reserved !== undefined) return `workdir may not be under ${reserved}, which the sandbox mounts itself`;
  return undefined;
}
