import { dirname } from 'node:path';
import { type EngineMode, type Suite, unbuiltEnvironment } from '@gz-bench/core';
import { withSuiteSettings } from '@gz-bench/core/run';

/**
 * What of each task's environment this host does not provide, one block per task: `<file>: <id>: not
 * reproduced here:` and an indented line each. A task whose checks fail here may fail for these.
 * `suiteFile` is the suite's absolute path; `baseImages` are the run's own (`--base-image`), which
 * win over the suite's, and `engine` the run's, whose store may hold a base image.
 */
export async function notReproducedText(
  file: string,
  suite: Suite,
  suiteFile: string,
  baseImages: Readonly<Record<string, string>> = {},
  engine: EngineMode = 'auto',
): Promise<string> {
  const blocks: string[] = [];
  for (const own of suite.cases) {
    const merged = withSuiteSettings(suite, own);
    const testCase = { ...merged, baseImages: { ...merged.baseImages, ...baseImages } };
    const missing = [
      ...(await unbuiltEnvironment(testCase, dirname(suiteFile), engine)),
      ...(testCase.notReproduced ?? []),
    ];
    if (missing.length === 0) continue;
    const lines = missing.map((line) => `  - ${oneLine(line)}\n`).join('');
    blocks.push(`${file}: ${testCase.id}: not reproduced here:\n${lines}`);
  }
  return blocks.join('');
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 160 ? `${flat.slice(0, 159)}…` : flat;
}
