import { describe, expect, it } from 'vitest';
import { parseOwnedDirName } from './owned-dirs.js';

describe('parseOwnedDirName', () => {
  it('reads the owner of case areas and cache dirs', () => {
    expect(parseOwnedDirName('gz-bench-4242-987654-AbC123')).toEqual({ kind: 'area', pid: 4242, startTime: 987654 });
    expect(parseOwnedDirName('gz-bench-cache-7-0-zzzzzz')).toEqual({ kind: 'cache', pid: 7, startTime: 0 });
    expect(parseOwnedDirName('gz-bench-slots-31-5-Q1w2E3')).toEqual({ kind: 'slots', pid: 31, startTime: 5 });
    expect(parseOwnedDirName('gz-bench-tools-31-5-Q1w2E3')).toEqual({ kind: 'tools', pid: 31, startTime: 5 });
    expect(parseOwnedDirName('gz-bench-build-8-2-aB3dE4')).toEqual({ kind: 'build', pid: 8, startTime: 2 });
  });

  it.each([
    'gz-bench-AbC123', // areas of earlier versions: judged by their owner.json
    'gz-bench-backup',
    'gz-bench-test-1-2-AbC123',
    'gz-bench-1-2-AbC12',
    'gz-bench-1-2-AbC1234',
    'gz-bench-1-2-AbC-12',
    'gz-bench-0-2-AbC123',
    'gz-bench-01-2-AbC123',
    'gz-bench-99999999999-2-AbC123',
    'gz-bench-cache-1-AbC123',
    'gz-bench-slots-1-AbC123',
    'gz-bench-other-1-2-AbC123',
    'gz-bench-sandbox-probe-AbC123',
  ])('takes %s for a name it does not make', (name) => {
    expect(parseOwnedDirName(name)).toBeUndefined();
  });
});
