import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { REPO_ROOT } from './paths.js';

/** A throwaway project directory in which `vitest` and `@gz-bench/*` resolve from this repository. */
export interface TempProject {
  dir: string;
  /** Writes a file (objects as pretty JSON), creating directories. */
  write(path: string, content: string | object): Promise<string>;
  remove(): Promise<void>;
}

/** Creates a temp project; its node_modules is a link to the repository's, as an installed project would have. */
export async function createTempProject(files: Record<string, string | object> = {}): Promise<TempProject> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'gz-bench-test-')));
  await symlink(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const project: TempProject = {
    dir,
    async write(path, content) {
      const file = join(dir, path);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, typeof content === 'string' ? content : `${JSON.stringify(content, null, 2)}\n`);
      return file;
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
  for (const [path, content] of Object.entries(files)) await project.write(path, content);
  return project;
}
