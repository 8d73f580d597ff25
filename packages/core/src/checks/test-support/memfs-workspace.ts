import { Volume } from 'memfs';
import type { CheckContext, CheckFs } from '../types.js';
import { noRegexMatching } from './inline-regex-matcher.js';

/** Options of {@link memfsWorkspace}. */
export interface MemfsWorkspaceOptions {
  /**
   * Content of `/outside/secret.txt`, the file that symlinks out of the workspace lead to.
   * @default 'SECRET'
   */
  outside?: string;
}

/** A memfs workspace, the context a check sees for it, and what the check opened in it. */
export interface MemfsWorkspace {
  /** A context for the workspace at /ws; its runCommand rejects, as file checks run no commands. */
  context: CheckContext;
  /** The recording filesystem of `context`, to wrap in a test. */
  fs: CheckFs;
  /** Every path passed to `readFile`, in order. */
  read: string[];
  /** Every `stat` and `readFile`, in order, as `stat <path>` and `read <path>`. */
  opened: string[];
}

/**
 * A memfs workspace at /ws with `files` and `links` (symlink → target) beside /outside/secret.txt. The
 * filesystem records the paths it is asked to stat and read, so a test can prove a check never opened
 * a file outside the workspace, a directory, or a file it only had to find.
 */
export function memfsWorkspace(
  files: Record<string, string | Buffer>,
  links: Record<string, string> = {},
  options: MemfsWorkspaceOptions = {},
): MemfsWorkspace {
  const vol = Volume.fromJSON({ '/outside/secret.txt': options.outside ?? 'SECRET' });
  vol.mkdirSync('/ws', { recursive: true });
  for (const [file, content] of Object.entries(files)) {
    vol.mkdirSync(`/ws/${file}/..`, { recursive: true });
    vol.writeFileSync(`/ws/${file}`, content);
  }
  for (const [link, target] of Object.entries(links)) vol.symlinkSync(target, `/ws/${link}`);
  const memfs = vol.promises as unknown as CheckFs;
  const read: string[] = [];
  const opened: string[] = [];
  const fs: CheckFs = {
    lstat: (path) => memfs.lstat(path),
    realpath: (path) => memfs.realpath(path),
    stat: (path) => {
      opened.push(`stat ${path}`);
      return memfs.stat(path);
    },
    readFile: (path) => {
      read.push(path);
      opened.push(`read ${path}`);
      return memfs.readFile(path);
    },
  };
  const context: CheckContext = {
    workspace: '/ws',
    fs,
    output: '',
    runCommand: () => Promise.reject(new Error('file checks run no commands')),
    matchRegex: noRegexMatching,
  };
  return { context, fs, read, opened };
}
