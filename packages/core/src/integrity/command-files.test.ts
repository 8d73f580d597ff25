import { describe, expect, it } from 'vitest';
import { shellWords } from './command-files.js';

describe('shellWords', () => {
  it.each([
    ['bash checks/run.sh', ['bash', 'checks/run.sh']],
    ['node test/a.js&&node test/b.js', ['node', 'test/a.js', 'node', 'test/b.js']],
    ['(cd sub; ./run.sh) | tee out.txt>log 2>&1', ['cd', 'sub', './run.sh', 'tee', 'out.txt', 'log', '2', '1']],
    [`node "test/with space.js" 'it''s'`, ['node', 'test/with space.js', 'its']],
    ['node "a\\"b" c\\ d', ['node', 'a"b', 'c d']],
    [`echo '' ""`, ['echo', '', '']],
    ['echo `cat x`', ['echo', 'cat', 'x']],
    ['  \t\n ', []],
    ['node a.js \\\n  b.js', ['node', 'a.js', 'b.js']],
  ])('%j', (command, words) => {
    expect(shellWords(command)).toEqual(words);
  });
});
