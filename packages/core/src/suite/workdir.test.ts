import { describe, expect, it } from 'vitest';
import { workdirProblem } from './workdir.js';

describe('workdirProblem', () => {
  it('accepts plain absolute paths', () => {
    for (const path of ['/app', '/srv/task', '/workspace/repo-1']) expect(workdirProblem(path), path).toBeUndefined();
  });

  it('refuses relative, unnormalised and reserved paths, and / itself, saying why', () => {
    expect(workdirProblem('app')).toBe('workdir must be an absolute path, such as "/app"; got "app"');
    expect(workdirProblem('/')).toBe('workdir may not be / itself; name a directory, such as "/app"');
    for (const path of ['/app/', '/a/../b', '/a/./b', '//app']) {
      expect(workdirProblem(path), path).toBe(
        `workdir must be a plain absolute path (no ., .., // or trailing /); got ${JSON.stringify(path)}`,
      );
    }
    expect(workdirProblem('/proc/app')).toBe('workdir may not be under /proc, which the sandbox mounts itself');
    expect(workdirProblem('/dev')).toBe('workdir may not be under /dev, which the sandbox mounts itself');
  });
});
