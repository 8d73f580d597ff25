import { describe, expect, it } from 'vitest';
import { readDockerfile } from './dockerfile.js';

describe('readDockerfile', () => {
  it('reproduces WORKDIR, COPY of the context into it, and plain ENV; names the rest', () => {
    const text = [
      '# a comment',
      'FROM python:3.13-slim-bookworm AS base',
      'RUN apt-get update && \\',
      '    apt-get install -y curl',
      'WORKDIR /app',
      'COPY data.csv /app/',
      'COPY ["src", "./src"]',
      'ADD --chown=1000 notes.txt notes/',
      'ENV MODE=test NAME="two words"',
      'ENV PATH=/opt/bin:$PATH',
      'COPY tool.sh /usr/local/bin/tool',
      'COPY --from=builder /out /app/out',
      'USER agent',
      'CMD ["bash"]',
      'LABEL maintainer=x',
    ].join('\n');
    expect(readDockerfile(text, [])).toEqual({
      workdir: '/app',
      files: [
        { from: 'data.csv', to: '.' },
        { from: 'src', to: 'src' },
        { from: 'notes.txt', to: 'notes/' },
      ],
      env: { MODE: 'test', NAME: 'two words' },
      notReproduced: [
        "the image python:3.13-slim-bookworm (FROM): the host's own tools are used instead",
        'RUN apt-get update && apt-get install -y curl',
        'ENV PATH=/opt/bin:$PATH',
        'COPY --from=builder /out /app/out',
        'USER agent',
        'COPY tool.sh /usr/local/bin/tool (outside the working directory)',
      ],
    });
  });

  it('reads a COPY before WORKDIR against the final working directory, and COPY . as the context entries', () => {
    const result = readDockerfile('FROM x\nWORKDIR /srv\nCOPY . .\nWORKDIR task\n', ['a.txt', 'lib']);
    expect(result.workdir).toBe('/srv/task');
    expect(result.files).toEqual([]);
    expect(result.notReproduced).toContain('COPY . . (outside the working directory)');
    const same = readDockerfile('WORKDIR /app\nCOPY . /app\n', ['a.txt', 'lib']);
    expect(same.files).toEqual([
      { from: 'a.txt', to: 'a.txt' },
      { from: 'lib', to: 'lib' },
    ]);
  });

  it('names sources it cannot copy: URLs, globs, paths outside the context', () => {
    const result = readDockerfile(
      'WORKDIR /app\nADD https://example.com/x.tgz /app/\nCOPY *.py /app/\nCOPY ../secret /app/\n',
      [],
    );
    expect(result.files).toEqual([]);
    expect(result.notReproduced).toEqual([
      'ADD https://example.com/x.tgz /app/',
      'COPY *.py /app/',
      'COPY ../secret /app/ (outside the build context)',
    ]);
  });

  it('gives no workdir and nothing to copy for an empty file', () => {
    expect(readDockerfile('', [])).toEqual({ files: [], env: {}, notReproduced: [] });
  });
});
