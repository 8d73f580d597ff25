import { lstat, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { isCaseToken } from '../process/sweep.js';

import { KEPT_FILE, OWNER_FILE } from './area-files.js';

export { KEPT_FILE, OWNER_FILE } from './area-files.js';

// Anything larger is not a record we wrote; it is not read at all.
const MAX_RECORD_BYTES = 64 * 1024;

/** Who created a case area and which token its commands carry (`owner.json`). */
export const OwnerRecordSchema = z.object({
  /** Pid of the harness process that created the area. */
  pid: z.number().int().positive(),
  /** Its start time: /proc/<pid>/stat field 22 (clock ticks since boot), or ms since the epoch without /proc. */
  startTime: z.number().int().nonnegative(),
  /** The case token of the area's commands. */
  token: z.string().refine(isCaseToken, 'not a case token'),
  /** When the area was created, ISO 8601. */
  created: z.string(),
});
/** The content of `owner.json`. */
export type OwnerRecord = z.infer<typeof OwnerRecordSchema>;

/**
 * The owner record of the area at `root`, or undefined when there is none that can be trusted to be
 * ours: missing, unreadable, not a regular file (a symlink planted by an agent), too large, or invalid.
 */
export async function readOwnerRecord(root: string): Promise<OwnerRecord | undefined> {
  const path = join(root, OWNER_FILE);
  const stats = await lstat(path).catch(() => undefined);
  if (!stats?.isFile() || stats.size > MAX_RECORD_BYTES) return undefined;
  const text = await readFile(path, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = OwnerRecordSchema.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}

/** True when the area at `root` is marked kept: a regular file `kept.json`, never a link. */
export async function isMarkedKept(root: string): Promise<boolean> {
  return (await lstat(join(root, KEPT_FILE)).catch(() => undefined))?.isFile() === true;
}
