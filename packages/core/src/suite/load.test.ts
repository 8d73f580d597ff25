import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SuiteError } from './errors.js';
import { type LoadSuiteOptions, loadSuite, parseSuiteSource } from './load.js';

const validSource = `{
  "$schema": "../node_modules/@gz-bench/core/suite.schema.json",
  "name": "demo",
  "cases": [
    { "id": "write-hello", "prompt": "Create hello.txt", "checks": [{ "kind": "fileExists", "path": "hello.txt" }] }
  ]
}
`;

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gz-bench-suite-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function write(name: string, text: string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, text, 'utf8');
  return file;
}

/** The SuiteError the loader throws for `file`. */
async function loadFails(file: string, options?: LoadSuiteOptions): Promise<SuiteError> {
  const error = await loadSuite(file, options).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(SuiteError);
  return error as SuiteError;
}

describe('loadSuite', () => {
  it('return the suite, the absolute file and the source', async () => {
    const file = await write('demo.bench.json', validSource);
    const loaded = await loadSuite(file);
    expect(loaded.file).toBe(file);
    expect(loaded.source).toBe(validSource);
    expect(loaded.suite.name).toBe('demo');
    expect(loaded.suite.cases.map((c) => c.id)).toEqual(['write-hello']);
  });

  it('resolve a relative file against cwd', async () => {
    await write('demo.bench.json', validSource);
    const loaded = await loadSuite('demo.bench.json', { cwd: dir });
    expect(loaded.file).toBe(join(dir, 'demo.bench.json'));
  });

  it('strip a BOM from the suite and the returned source', async () => {
    const file = await write('bom.bench.json', `\uFEFF${validSource}`);
    const loaded = await loadSuite(file);
    expect(loaded.source).toBe(validSource);
    expect(loaded.suite.name).toBe('demo');
  });

  it('name the file in messages by displayPath when given, and keep the absolute path in the error', async () => {
    const file = await write('dup.bench.json', '{"name": "s", "cases": [], "extra": 1}');
    const error = await loadFails(file, { displayPath: 'bench/dup.bench.json' });
    expect(error.message).toBe('bench/dup.bench.json: invalid suite: unknown key "extra"');
    expect(error.file).toBe(file);
  });

  it('report a missing file with its name as given', async () => {
    const error = await loadFails('missing.bench.json', { cwd: dir });
    expect(error.message).toBe('file not found: missing.bench.json');
    expect(error).toMatchObject({ code: 'GZ_BENCH_SUITE_NOT_FOUND', file: join(dir, 'missing.bench.json') });
    expect(error.cause).toMatchObject({ code: 'ENOENT' });
  });

  it('report a directory where a file should be', async () => {
    await mkdir(join(dir, 'bench'));
    const error = await loadFails('bench', { cwd: dir });
    expect(error.message).toBe(
      'cannot read suite file bench: it is a directory with no task in it; name a .json suite file, a task directory (task.toml, task.yaml) or a directory of them',
    );
    expect(error.code).toBe('GZ_BENCH_SUITE_UNREADABLE');
  });

  it('report malformed JSON with a 1-based line and column', async () => {
    await write('bad.bench.json', '{\n  "name": "x",\n  "cases": [,]\n}\n');
    const error = await loadFails('bad.bench.json', { cwd: dir });
    expect(error.message).toBe('bad.bench.json: invalid JSON at line 3, column 13: expected a value, found ","');
    expect(error).toMatchObject({ code: 'GZ_BENCH_SUITE_INVALID_JSON', line: 3, column: 13 });
    expect(error.cause).toBeInstanceOf(SyntaxError);
  });

  it('count columns after a BOM as an editor shows them', async () => {
    await write('bom-bad.bench.json', '\uFEFF{"name": }');
    const error = await loadFails('bom-bad.bench.json', { cwd: dir });
    expect(error.message).toBe('bom-bad.bench.json: invalid JSON at line 1, column 10: expected a value, found "}"');
  });

  it('report an empty file', async () => {
    await write('empty.bench.json', '');
    const error = await loadFails('empty.bench.json', { cwd: dir });
    expect(error.message).toBe(
      'empty.bench.json: invalid JSON at line 1, column 1: expected a value, found end of input',
    );
  });

  it('report schema problems with the file as given', async () => {
    await write(
      'dup.bench.json',
      '{"name":"s","cases":[{"id":"a","prompt":"p","checks":[]},{"id":"a","prompt":"p","checks":[]}]}',
    );
    const error = await loadFails('dup.bench.json', { cwd: dir });
    expect(error.message).toBe('dup.bench.json: invalid suite at cases[1].id: duplicate case id "a"');
    expect(error).toMatchObject({ code: 'GZ_BENCH_INVALID_SUITE', file: join(dir, 'dup.bench.json') });
  });
});

describe('parseSuiteSource', () => {
  it('parses text already in memory, BOM and all', () => {
    expect(parseSuiteSource(`\uFEFF${validSource}`).name).toBe('demo');
  });

  it('names the file in errors when given one', () => {
    expect(() => parseSuiteSource('{"name": "s", "cases": [}', 'x.json')).toThrow(
      'x.json: invalid JSON at line 1, column 25: expected a value, found "}"',
    );
  });

  it("falls back to V8's report when the scanner gives up on deep nesting", () => {
    const error = (() => {
      try {
        parseSuiteSource('['.repeat(200_000), 'deep.json');
      } catch (caught) {
        return caught as SuiteError;
      }
    })();
    expect(error?.code).toBe('GZ_BENCH_SUITE_INVALID_JSON');
    // V8's wording differs between Node versions; the form and the single line do not.
    expect(error?.message).toMatch(/^deep\.json: invalid JSON(?: at line 1, column \d+)?: \S[^\n]*$/);
    expect(error?.message.length).toBeLessThan(200);
  });

  describe('quotes numbers JSON.parse cannot hold as written', () => {
    /** The message for a suite whose first case has `field: literal`, written as raw JSON text. */
    const messageFor = (fields: string) => {
      const source = `{"name":"s","cases":[{"id":"a","prompt":"p","checks":[],${fields}}]}`;
      try {
        parseSuiteSource(source, 'bench/x.json');
      } catch (error) {
        return (error as SuiteError).message;
      }
      throw new Error('expected the suite to be rejected');
    };

    it.each([
      ['"timeoutSec": 1e400', 'timeoutSec: must be a finite number of seconds (got 1e400, which is too large)'],
      [
        '"timeoutSec": -1E+999',
        'timeoutSec: must be a finite number of seconds (got -1E+999, which is too large a negative number)',
      ],
      ['"maxDiskMB": 1e400', 'maxDiskMB: must be a finite number of MiB (got 1e400, which is too large)'],
      ['"maxOutputMB": 2e308', 'maxOutputMB: must be a finite number of MiB (got 2e308, which is too large)'],
      [
        '"checks": [{"kind":"command","run":"x","expectExit":1e400}]',
        'checks[0].expectExit: must be an exit code from 0 to 255 (got 1e400, which is too large)',
      ],
      // The last of duplicate keys is the one JSON.parse kept, and the one quoted.
      [
        '"timeoutSec": 5, "timeoutSec": 1e400',
        'timeoutSec: must be a finite number of seconds (got 1e400, which is too large)',
      ],
    ])('%s', (fields, message) => {
      expect(messageFor(fields)).toBe(`bench/x.json: invalid suite at cases[0].${message}`);
    });

    it('says why a positive number that reads as 0 is refused, and nothing more for a real 0', () => {
      expect(messageFor('"timeoutSec": 1e-400')).toBe(
        'bench/x.json: invalid suite at cases[0].timeoutSec: must be a positive number of seconds (got 1e-400, which is too small to tell from 0)',
      );
      expect(messageFor('"maxDiskMB": -0.0e7')).toBe(
        'bench/x.json: invalid suite at cases[0].maxDiskMB: must be a positive number of MiB',
      );
    });

    it('keeps the usual message for a number of the wrong kind', () => {
      expect(messageFor('"id": 1e400')).toBe(
        'bench/x.json: invalid suite at cases[0].id: expected string, received number',
      );
    });
  });

  it('rejects a NUL character in a prompt written as an escape', () => {
    const source = '{"name":"s","cases":[{"id":"a","prompt":"a\\u0000b","checks":[]}]}';
    expect(() => parseSuiteSource(source)).toThrow('invalid suite at cases[0].prompt: may not contain a NUL character');
  });
});
