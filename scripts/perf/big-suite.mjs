// The suite of the loading rows: `cases` cases in one file, written deterministically, with what a real
// suite has: a fixture repository with protected tests, checkers that are fixture files, setup on some
// cases, their own timeouts, environment and fixture settings on others, and all five check kinds.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Writes `suite.json` and its fixture `repo/` into `dir`; resolves with the suite's path. */
export async function writeBigSuite(dir, cases) {
  await mkdir(join(dir, 'repo', 'test'), { recursive: true });
  await mkdir(join(dir, 'repo', 'checks'), { recursive: true });
  await mkdir(join(dir, 'repo', 'src'), { recursive: true });
  await writeFile(join(dir, 'repo', 'test', 'sum.test.js'), "require('node:assert').equal(1 + 1, 2);\n");
  await writeFile(join(dir, 'repo', 'checks', 'run.sh'), 'node test/sum.test.js\n');
  await writeFile(join(dir, 'repo', 'checks', 'lint.sh'), 'exit 0\n');
  await writeFile(join(dir, 'repo', 'src', 'sum.js'), 'module.exports = (a, b) => a + b;\n');
  const suite = {
    $schema: './node_modules/@gz-bench/core/suite.schema.json',
    name: 'ten-thousand',
    description: 'Generated for the loading benchmark',
    version: '1.0.0',
    repo: 'repo',
    protect: ['test/'],
    allowEnv: ['OPENAI_API_KEY'],
    cases: Array.from({ length: cases }, (_, index) => bigCase(index)),
  };
  const file = join(dir, 'suite.json');
  await writeFile(file, `${JSON.stringify(suite, null, 2)}\n`);
  return file;
}

function bigCase(index) {
  const own = {};
  if (index % 3 === 0) own.setup = ['npm ci --offline || true', `echo case ${index} > notes.txt`];
  if (index % 7 === 0) own.timeoutSec = 300;
  if (index % 11 === 0) own.maxOutputMB = 16;
  if (index % 13 === 0) own.allowEnv = ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY'];
  if (index % 17 === 0) own.protect = ['test/', 'checks/lint.sh'];
  if (index % 19 === 0) own.git = true;
  return {
    id: `task-${String(index).padStart(5, '0')}`,
    prompt: `Task ${index}: the tests in test/ fail. Fix the bug in src/sum.js, keep the public API, and print "done" when finished.`,
    ...own,
    checks: [
      { kind: 'fileExists', path: 'src/sum.js' },
      { kind: 'fileContains', path: 'src/sum.js', text: 'module.exports', ...(index % 2 === 0 ? { flags: 'i' } : {}) },
      { kind: 'fileNotExists', path: `scratch-${index}.tmp` },
      { kind: 'command', run: index % 5 === 0 ? 'sh checks/lint.sh && sh checks/run.sh' : 'sh checks/run.sh' },
      { kind: 'command', run: 'git diff --name-only | grep -qx src/sum.js', expectExit: index % 2 },
      { kind: 'outputMatches', pattern: `\\bdone\\b|task ${index} (finished|complete)`, flags: 'i' },
    ],
  };
}
