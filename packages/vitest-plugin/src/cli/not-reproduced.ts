import type { Suite } from '@gz-bench/core';

/**
 * What of each task's environment this host does not provide, one block per task: `<file>: <id>: not
 * reproduced here:` and an indented line each. A task whose checks fail here may fail for these.
 */
export function notReproducedText(file: string, suite: Suite): string {
  return suite.cases
    .filter((testCase) => (testCase.notReproduced?.length ?? 0) > 0)
    .map((testCase) => {
      const lines = (testCase.notReproduced ?? []).map((line) => `  - ${oneLine(line)}\n`).join('');
      return `${file}: ${testCase.id}: not reproduced here:\n${lines}`;
    })
    .join('');
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 160 ? `${flat.slice(0, 159)}…` : flat;
}
