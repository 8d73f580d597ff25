import { envStringBytes, MAX_ARG_STRLEN } from '../process/arg-limits.js';
import { PROMPT_ENV, PROMPT_FILE_ENV, templateUses } from '../template/render-template.js';

// A prompt reaches a case's commands in two ways: the file `{{promptFile}}` (GZ_BENCH_PROMPT_FILE),
// for a prompt of any length, and the environment variable behind `{{prompt}}` (GZ_BENCH_PROMPT),
// which Linux caps at 128 KiB like any one environment string. Setup and checks get both where the
// prompt fits, and the file alone where it does not, so a long prompt only fails a case whose
// template asks for it inline.

/** The most bytes of prompt that GZ_BENCH_PROMPT can carry: Linux's limit for one `NAME=value`, less the name and the NUL. */
export const MAX_INLINE_PROMPT_BYTES = MAX_ARG_STRLEN - envStringBytes(PROMPT_ENV, '');

/** Whether the prompt fits in the environment variable GZ_BENCH_PROMPT. */
export function promptFitsInEnv(prompt: string): boolean {
  return envStringBytes(PROMPT_ENV, prompt) <= MAX_ARG_STRLEN;
}

/**
 * Why the command template cannot pass this prompt: `{{prompt}}` with a prompt too long for one
 * environment variable. Undefined when it can, as with `{{promptFile}}` alone, whatever the length.
 */
export function inlinePromptProblem(template: string, prompt: string): string | undefined {
  if (!templateUses(template, 'prompt') || promptFitsInEnv(prompt)) return undefined;
  return (
    `the prompt is ${Buffer.byteLength(prompt)} bytes, over Linux's 128 KiB limit for one environment variable ` +
    `(${MAX_INLINE_PROMPT_BYTES} bytes of prompt); use {{promptFile}} (my-agent < {{promptFile}}) to pass long prompts`
  );
}

/** The prompt's environment variables for every command of a case: the file always, the text where it fits. */
export function promptEnv(prompt: string, promptFile: string): Record<string, string> {
  return { [PROMPT_FILE_ENV]: promptFile, ...(promptFitsInEnv(prompt) && { [PROMPT_ENV]: prompt }) };
}
