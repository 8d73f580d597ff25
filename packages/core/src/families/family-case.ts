import { constants } from 'node:fs';
import { mkdir, open, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { generateFamilyTask } from './generate.js';
import type { FamilyScore } from './task.js';
import { startToolServer } from './tool-server.js';
import type { FamilyInstance } from './types.js';

export { ToolServerError } from './tool-server.js';

/** An answer file larger than this is not read: no honest answer of a family comes near it. */
const MAX_ANSWER_BYTES = 1024 * 1024;

/** One family case while it runs: its tool server, its workspace files, its scoring. */
export interface FamilyCase {
  /** Where its tool server has its FIFOs (`GZ_BENCH_TOOLS`). */
  toolDir: string;
  /** Where its tools take their reply slots, in the case area (`GZ_BENCH_TOOL_SLOTS`). */
  slotsDir: string;
  /** Writes the task's files into the workspace, over any fixture files of the same name. */
  writeFiles(workspace: string): Promise<void>;
  /**
   * Scores the answer in the workspace against the calls logged so far; call once the agent is dead.
   * Without a workspace (one the agent broke) the calls are counted and no answer is read.
   */
  score(workspace: string | undefined): Promise<FamilyScore>;
  close(): Promise<void>;
}

/** Generates the task of `instance` and starts its tool server, its FIFOs under `parent`, its slots at `slotsDir`. */
export async function startFamilyCase(instance: FamilyInstance, parent: string, slotsDir: string): Promise<FamilyCase> {
  const task = generateFamilyTask(instance);
  const server = await startToolServer(task, parent, slotsDir);
  return {
    toolDir: server.dir,
    slotsDir: server.slotsDir,
    writeFiles: async (workspace) => {
      for (const [path, content] of Object.entries(task.files)) {
        const file = join(workspace, path);
        await mkdir(dirname(file), { recursive: true });
        await writeFile(file, content, { mode: path.startsWith('tools/') ? 0o755 : 0o644 });
      }
    },
    score: async (workspace) => {
      const answer = workspace === undefined ? undefined : await readAnswer(join(workspace, task.answerFile));
      return task.score(answer, server.calls());
    },
    close: () => server.close(),
  };
}

/** The answer file's text, or undefined when it is missing, not a regular file (a link the agent made) or too large. */
async function readAnswer(file: string): Promise<string | undefined> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile() || stat.size > MAX_ANSWER_BYTES) return undefined;
    return (await handle.readFile()).toString('utf8');
  } finally {
    await handle.close();
  }
}
