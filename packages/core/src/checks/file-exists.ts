import type { CheckDefinition } from './types.js';
import { resolveWorkspacePath } from './workspace-path.js';

/** `fileExists`: passes when the path exists inside the workspace, as a file or a directory. */
export const fileExistsCheck: CheckDefinition<'fileExists'> = {
  kind: 'fileExists',
  async evaluate(check, { fs, workspace }) {
    const target = await resolveWorkspacePath(fs, workspace, check.path);
    switch (target.status) {
      case 'found':
        return { passed: true };
      case 'refused':
        return { passed: false, message: target.message };
      // A dangling symlink names nothing the agent could have meant to create.
      case 'missing':
      case 'dangling':
        return { passed: false, message: `file does not exist: ${check.path}` };
    }
  },
};
