import { truncateText } from './messages.js';
import type { CheckDefinition } from './types.js';
import { resolveWorkspacePath } from './workspace-path.js';

/** Largest file a `fileContains` check reads: an agent may leave huge files, and checks read them whole. */
export const MAX_FILE_CONTAINS_BYTES = 64 * 1024 * 1024;

// Non-fatal: invalid UTF-8 becomes U+FFFD, so binary junk around the text does not hide it.
const utf8 = new TextDecoder('utf-8');

/** `fileContains`: passes when the path is a regular file inside the workspace that contains `text`. */
export const fileContainsCheck: CheckDefinition<'fileContains'> = {
  kind: 'fileContains',
  async evaluate(check, { fs, workspace }) {
    const target = await resolveWorkspacePath(fs, workspace, check.path);
    if (target.status === 'refused') return { passed: false, message: target.message };
    if (target.status !== 'found') return { passed: false, message: `file does not exist: ${check.path}` };

    // Only the real path, already verified to be inside the workspace, is ever statted or read.
    const stats = await fs.stat(target.realPath);
    if (!stats.isFile()) return { passed: false, message: `not a file: ${check.path}` };
    if (Number(stats.size) > MAX_FILE_CONTAINS_BYTES) {
      return {
        passed: false,
        message: `file is larger than the ${MAX_FILE_CONTAINS_BYTES / 1024 / 1024} MiB limit of fileContains: ${check.path}`,
      };
    }

    const content = utf8.decode(await fs.readFile(target.realPath));
    if (contains(content, check.text, check.flags === 'i')) return { passed: true };
    const shownText = JSON.stringify(truncateText(check.text, 80));
    return { passed: false, message: `file does not contain ${shownText}: ${check.path}` };
  },
};

function contains(content: string, text: string, ignoreCase: boolean): boolean {
  // Lower-casing both sides is what users mean by "case-insensitive" for ordinary text; full Unicode
  // case folding (ß vs SS) is out of scope.
  return ignoreCase ? content.toLowerCase().includes(text.toLowerCase()) : content.includes(text);
}
