import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NO_OP_COMMAND, solutionCommand } from './oracle.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gz-bench-oracle-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

function run(lines: string[]) {
  return spawnSync('/bin/sh', ['-c', solutionCommand(lines)], { cwd: dir, encoding: 'utf8' });
}

describe('solutionCommand', () => {
  it('runs the lines in order in one shell, as written', () => {
    const result = run([
      'mkdir sub',
      'cd sub',
      'echo "{{prompt}} $(basename "$PWD")" # a comment',
      'cat <<EOF\nhere\nEOF',
    ]);
    expect(result.stdout).toBe('{{prompt}} sub\nhere\n');
    expect(result.status).toBe(0);
  });

  it('stops at the first line that fails, with its exit code', () => {
    const result = run(['echo one', 'sh -c "exit 7" && echo never', 'echo two']);
    expect(result.stdout).toBe('one\n');
    expect(result.status).toBe(7);
  });

  it('is the no-op for no lines', () => {
    expect(solutionCommand([])).toBe(NO_OP_COMMAND);
    expect(execFileSync('/bin/sh', ['-c', NO_OP_COMMAND], { encoding: 'utf8' })).toBe('');
  });
});
