import type { CheckDefinition } from './types.js';
import { resolveWorkspacePath } from './workspace-path.js';

/** `fileNotExists`: passes when nothing at all, not even a dangling symlink, is at the path. */
export const fileNotExistsCheck: CheckDefinition<'fileNotExists'> = {
  kind: 'fileNotExists',
  async evaluate(check, { fs, workspace }) {
    const target = await resolveWorkspacePath(fs, workspace, check.path);
    switch (target.status) {
      case 'missing':
        return { passed: true };
      case 'refused':
        return { passed: false, message: target.message };
      // Junk the agent left behind is junk even when it is a broken link.
      case 'found':
      case 'dangling':
        return { passed: false, message: `file exists but should not: ${check.path}` };
    }
  },
};
