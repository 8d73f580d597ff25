/** The README's "full schema with every field" example, with every check kind; a fresh copy per call. */
export const readmeSuite = () => ({
  name: 'my-suite',
  description: 'optional',
  version: '1.0.0',
  cases: [
    {
      id: 'write-hello',
      prompt: "Create hello.txt containing 'hi'",
      setup: ['npm install'],
      timeoutSec: 120,
      checks: [
        { kind: 'fileExists', path: 'hello.txt' },
        { kind: 'fileContains', path: 'hello.txt', text: 'hi' },
        { kind: 'fileNotExists', path: '.git' },
        { kind: 'command', run: 'node hello.js', expectExit: 0 },
        { kind: 'outputMatches', pattern: '\\bdone\\b', flags: 'i' },
      ],
    },
  ],
});
