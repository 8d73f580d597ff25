import type { ModelScript, Reply, ReplyUsage } from '../support/model-endpoint/index.js';

/** Steps of the long conversation: 14 tool calls, then the final text. */
export const LONG_STEPS = 15;

/**
 * The usage the endpoint reports for step `i` (API figures: `input` counts cached tokens for the
 * OpenAI and Gemini APIs, not for Anthropic's). Over the 15 steps: 19,744 input tokens, 750 output
 * tokens, 1,400 cached input tokens (steps 1–7), 300 cache writes (step 0).
 */
export function stepUsage(i: number): ReplyUsage {
  return {
    input: 1200 + 16 * i + (i === LONG_STEPS - 1 ? 64 : 0),
    output: 29 + 3 * i,
    ...(i >= 1 && i <= 7 ? { cachedInput: 200 } : {}),
    ...(i === 0 ? { cacheWrite: 300 } : {}),
  };
}

/** The sums the scripted conversation reports, written out so that no test can agree with itself. */
export const LONG_TOTALS = { input: 19_744, output: 750, cachedInput: 1_400, cacheWrite: 300 } as const;

/** A tool call of the agent's own that writes `content` to the absolute path `path`. */
export type WriteCall = (path: string, content: string) => { name: string; arguments: Record<string, unknown> };

/**
 * The long conversation: the first tool call writes hello.txt with "hi", the next 13 write
 * step-<i>.txt (distinct, so that no agent takes them for a loop), then a final text.
 */
export function longScript(workspace: string, write: WriteCall, servedModel: string): ModelScript {
  const steps: Reply[] = [];
  for (let i = 0; i < LONG_STEPS - 1; i++) {
    const [file, content] = i === 0 ? ['hello.txt', 'hi\n'] : [`step-${i}.txt`, `step ${i}\n`];
    steps.push({ kind: 'tool', ...write(`${workspace}/${file}`, content), usage: stepUsage(i) });
  }
  steps.push({ kind: 'text', text: 'Done: hello.txt holds hi.', usage: stepUsage(LONG_STEPS - 1) });
  return { steps, servedModel };
}

/** A two-step conversation: write hello.txt, then say so. */
export function shortScript(workspace: string, write: WriteCall, servedModel: string): ModelScript {
  return {
    servedModel,
    steps: [
      { kind: 'tool', ...write(`${workspace}/hello.txt`, 'hi\n'), usage: { input: 1500, output: 40 } },
      { kind: 'text', text: 'Done.', usage: { input: 1600, output: 12 } },
    ],
  };
}

/** A tool call of the agent's own that runs `command` in its shell. */
export type ShellCall = (command: string) => { name: string; arguments: Record<string, unknown> };

/** The commands of the shell conversation, in order: the second one fails (exit 1). */
export const SHELL_COMMANDS = ["printf 'hi\\n' > hello.txt", 'cat missing.txt', 'wc -c hello.txt'] as const;

/** What the shell conversation ends with. */
export const SHELL_FINAL_TEXT = 'Done: hello.txt holds hi.';

/** The usage the endpoint reports for each reply of the shell conversation. */
export const SHELL_USAGE: readonly ReplyUsage[] = [
  { input: 1200, output: 30 },
  { input: 1300, output: 31, cachedInput: 200 },
  { input: 1400, output: 32 },
  { input: 1500, output: 33 },
];

/** The shell conversation: three commands through the agent's shell tool, then a final text. */
export function shellScript(shell: ShellCall, servedModel: string): ModelScript {
  const steps: Reply[] = SHELL_COMMANDS.map((command, i) => ({
    kind: 'tool',
    ...shell(command),
    usage: SHELL_USAGE[i] ?? { input: 0, output: 0 },
  }));
  steps.push({
    kind: 'text',
    text: SHELL_FINAL_TEXT,
    usage: SHELL_USAGE[SHELL_COMMANDS.length] ?? { input: 0, output: 0 },
  });
  return { steps, servedModel };
}
