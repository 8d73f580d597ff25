// biome-ignore-all lint/suspicious/noTemplateCurlyInString: Dockerfile variables, not JS templates.
import { describe, expect, it } from 'vitest';
import { DockerfileError, expandVars, keyValuePairs, parseDockerfile } from './parse-dockerfile.js';

describe('parseDockerfile', () => {
  it('joins continued lines, drops comments, and keeps the line an instruction starts on', () => {
    const instructions = parseDockerfile(
      [
        '# syntax=docker/dockerfile:1',
        'FROM base AS build',
        '',
        'RUN apt-get update \\',
        '  # a comment inside the continuation',
        '  && apt-get install -y python3',
        'COPY --from=build --chmod=755 /out /usr/local/bin/',
        'CMD ["python3", "-m", "http.server"]',
      ].join('\n'),
    );
    expect(instructions).toEqual([
      { keyword: 'FROM', flags: {}, text: 'base AS build', line: 2 },
      { keyword: 'RUN', flags: {}, text: 'apt-get update  && apt-get install -y python3', line: 4 },
      { keyword: 'COPY', flags: { from: 'build', chmod: '755' }, text: '/out /usr/local/bin/', line: 7 },
      {
        keyword: 'CMD',
        flags: {},
        text: '["python3", "-m", "http.server"]',
        json: ['python3', '-m', 'http.server'],
        line: 8,
      },
    ]);
  });

  it('takes the escape character of an `# escape=` directive', () => {
    const [from, run] = parseDockerfile('# escape=`\nFROM base\nRUN echo a `\n  b\n');
    expect(from?.keyword).toBe('FROM');
    expect(run).toMatchObject({ keyword: 'RUN', text: 'echo a  b', line: 3 });
  });

  it('reads CRLF files as LF ones', () => {
    expect(parseDockerfile('FROM base\r\nWORKDIR /app\r\n').map((step) => step.text)).toEqual(['base', '/app']);
  });

  it('refuses a here-document, naming its line', () => {
    expect(() => parseDockerfile('FROM base\nRUN <<EOF\necho hi\nEOF\n')).toThrow(
      new DockerfileError('line 2: here-documents (RUN <<EOF) are not supported'),
    );
  });
});

describe('expandVars', () => {
  const vars = { NAME: 'world', EMPTY: '' };
  const cases: [string, string][] = [
    ['$NAME', 'world'],
    ['${NAME}-x', 'world-x'],
    ['${MISSING:-fallback}', 'fallback'],
    ['${EMPTY:-fallback}', 'fallback'],
    ['${NAME:-fallback}', 'world'],
    ['${NAME:+set}', 'set'],
    ['${MISSING:+set}', ''],
    ['\\$NAME', '$NAME'],
    ['$MISSING/bin', '/bin'],
  ];
  it.each(cases)('%s is %s', (text, expected) => {
    expect(expandVars(text, vars)).toBe(expected);
  });
});

describe('keyValuePairs', () => {
  it('reads pairs with quoted values, and bare ARG names', () => {
    expect(keyValuePairs('A=1 B="two words" C=\'x y\' D=a\\ b', 'ENV', 1)).toEqual([
      ['A', '1'],
      ['B', 'two words'],
      ['C', 'x y'],
      ['D', 'a b'],
    ]);
    expect(keyValuePairs('VERSION', 'ARG', 1)).toEqual([['VERSION', undefined]]);
  });

  it("reads the old `ENV NAME value` form, whose value is the line's rest", () => {
    expect(keyValuePairs('PATH /opt/bin:/usr/bin and more', 'ENV', 3)).toEqual([
      ['PATH', '/opt/bin:/usr/bin and more'],
    ]);
  });

  it('names the line of a pair it cannot read', () => {
    expect(() => keyValuePairs('A="unterminated', 'ENV', 7)).toThrow(/line 7: cannot read ENV/);
  });
});
