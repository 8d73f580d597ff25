import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { caseLogLocation, displayPath, logSlug, SLUG_MAX_CHARS } from './log-paths.js';

const HOSTILE_IDS = [
  '../../x',
  'a/b',
  'a_b',
  'A_b',
  '..',
  '.',
  '.hidden',
  'héllo-世界-🙂',
  'x'.repeat(300),
  `${'x'.repeat(299)}y`,
  'back\\slash',
  'nul\u0000byte',
  'new\nline',
  'write-hello-0123456789ab',
  '',
];

describe('logSlug', () => {
  it('keeps short plain names as they are', () => {
    for (const name of ['write-hello', 'fix_off-by-one', 'case.1', 'a', '0']) expect(logSlug(name)).toBe(name);
  });

  it('makes every user string one safe directory name, under the name length limit', () => {
    for (const name of HOSTILE_IDS) {
      const slug = logSlug(name);
      expect(slug).toMatch(/^[A-Za-z0-9._-]+$/);
      expect(slug).not.toMatch(/^\.\.?$/);
      expect(slug.startsWith('.')).toBe(false);
      expect(Buffer.byteLength(slug)).toBeLessThanOrEqual(SLUG_MAX_CHARS + 13);
    }
  });

  it('tells apart names that look alike once made safe, whatever the case of their letters', () => {
    const slugs = HOSTILE_IDS.map(logSlug);
    expect(new Set(slugs).size).toBe(HOSTILE_IDS.length);
    expect(new Set(slugs.map((slug) => slug.toLowerCase())).size).toBe(HOSTILE_IDS.length);
    // A plain name that ends like a hashed slug is hashed too, so it cannot take another name's slug.
    expect(logSlug('write-hello-0123456789ab')).not.toBe('write-hello-0123456789ab');
  });

  it('is the same on every run', () => {
    expect(logSlug('a/b')).toBe(logSlug('a/b'));
    expect(logSlug('a/b')).toMatch(/^a_b-[0-9a-f]{12}$/);
  });
});

describe('caseLogLocation', () => {
  const root = '/project';
  const logsDir = '/project/.gz-bench/logs';

  it('puts each (suite file, case) in a directory of its own below the logs directory', () => {
    const location = caseLogLocation({ logsDir, root, suiteFile: '/project/demo.bench.json', caseId: 'write-hello' });
    expect(location).toEqual({
      dir: '/project/.gz-bench/logs/demo.bench.json/write-hello',
      display: '.gz-bench/logs/demo.bench.json/write-hello',
    });
    const nested = caseLogLocation({ logsDir, root, suiteFile: 'bench/x.bench.json', caseId: 'write-hello' });
    expect(nested.display).toMatch(/^\.gz-bench\/logs\/bench_x\.bench\.json-[0-9a-f]{12}\/write-hello$/);
  });

  it('never leads out of the logs directory, whatever the case id', () => {
    const dirs = new Set<string>();
    for (const caseId of HOSTILE_IDS) {
      const { dir } = caseLogLocation({ logsDir, root, suiteFile: '/project/s.bench.json', caseId });
      expect(dir.startsWith(`${logsDir}/s.bench.json/`)).toBe(true);
      expect(dir.split('/')).toHaveLength(logsDir.split('/').length + 2);
      dirs.add(dir);
    }
    expect(dirs.size).toBe(HOSTILE_IDS.length);
  });

  it('gives runs of one case (agents, trials) a level each below the case', () => {
    const location = caseLogLocation({ logsDir, root, suiteFile: 's.json', caseId: 'c', run: ['my agent', '2'] });
    expect(location.dir).toBe(join(logsDir, 's.json', 'c', logSlug('my agent'), '2'));
  });

  it('shows a logs directory outside the root by its absolute path', () => {
    const location = caseLogLocation({ logsDir: '/var/log/gz', root, suiteFile: 's.json', caseId: 'c' });
    expect(location.display).toBe('/var/log/gz/s.json/c');
    expect(displayPath('/project', '/project-other/x')).toBe('/project-other/x');
    expect(displayPath('/project', '/project/a/b')).toBe('a/b');
  });
});
