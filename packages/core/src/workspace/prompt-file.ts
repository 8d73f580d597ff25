import { writeFileSync } from 'node:fs';
import type { CaseArea } from './case-area.js';

/**
 * Writes the case prompt to the area's prompt file exactly (its UTF-8 bytes, no newline added), so
 * that `{{promptFile}}` passes a prompt of any length. Mode 0444: the prompt is the harness's input,
 * not the agent's to change; the bwrap sandbox also mounts the file read-only, which binds root too.
 */
export async function writePromptFile(area: CaseArea, prompt: string): Promise<void> {
  // Synchronous, as the rest of the case area (case-area.ts).
  writeFileSync(area.promptFile, prompt, { mode: 0o444, flag: 'wx' });
}
