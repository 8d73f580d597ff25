/** The suite that `gz-bench init` writes: every case passes with `--cmd "echo done"`, and each shows one check kind. */
export function exampleSuite(schemaPath: string | undefined): object {
  return {
    ...(schemaPath !== undefined && { $schema: schemaPath }),
    name: 'example-suite',
    description: 'Demo cases that pass with --cmd "echo done". Point --cmd at your agent, then write your own cases.',
    version: '1.0.0',
    cases: [
      {
        id: 'says-done',
        prompt: 'Reply with the single word: done',
        timeoutSec: 30,
        checks: [{ kind: 'outputMatches', pattern: '\\bdone\\b', flags: 'i' }],
      },
      {
        id: 'keeps-setup-files',
        prompt: 'Read notes.txt and tell me what it says. Do not change any file.',
        setup: ["printf 'hello from setup\\n' > notes.txt"],
        checks: [
          { kind: 'fileExists', path: 'notes.txt' },
          { kind: 'fileContains', path: 'notes.txt', text: 'HELLO FROM SETUP', flags: 'i' },
          { kind: 'fileNotExists', path: '.env.local' },
        ],
      },
      {
        id: 'workspace-starts-empty',
        prompt: 'List the files in the current directory.',
        checks: [
          { kind: 'command', run: 'test -z "$(ls -A)"', expectExit: 0 },
          { kind: 'command', run: 'test -f notes.txt', expectExit: 1 },
        ],
      },
    ],
  };
}
