import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';

/** A recorded transcript: a preset's long conversation, or (`.shell`) its shell conversation. */
export type TranscriptName =
  | 'claude-code'
  | 'codex'
  | 'gemini'
  | 'qwen'
  | 'opencode'
  | 'claude-code.shell'
  | 'codex.shell'
  | 'gemini.shell'
  | 'qwen.shell'
  | 'opencode.shell';

/**
 * Real agent stdout captured from the CLIs by the offline end-to-end tests (test/agents; the
 * `.shell` ones are re-recorded with GZ_BENCH_RECORD_TRANSCRIPTS=1).
 */
export function transcriptPath(name: TranscriptName): string {
  return fileURLToPath(new URL(`./transcripts/${name}.stdout`, import.meta.url));
}

/** Writes stdout files into a temp dir that is removed after the test file. Call once at the top level. */
export function outputFiles(): (text: string | Buffer) => Promise<string> {
  let dir: Promise<string> | undefined;
  let count = 0;
  afterAll(async () => {
    if (dir) await rm(await dir, { recursive: true, force: true });
  });
  return async (text) => {
    dir ??= mkdtemp(join(tmpdir(), 'gzb-usage-'));
    const file = join(await dir, `stdout-${++count}`);
    await writeFile(file, text);
    return file;
  };
}
