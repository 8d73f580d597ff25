import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testScriptNeeds } from './script-needs.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'gz-bench-script-needs-'));
  await mkdir(join(root, 'tests'));
  await writeFile(join(root, 'tests', 'test_outputs.py'), '');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('testScriptNeeds', () => {
  it('names installs and the harness files the script uses that the task lacks', async () => {
    const script = join(root, 'run-tests.sh');
    await writeFile(
      script,
      [
        '#!/bin/bash',
        '# apt-get install -y commented-out',
        'source $TEST_DIR/setup-uv-pytest.sh',
        'apt-get update && apt-get install -y curl',
        'curl -LsSf https://astral.sh/uv/install.sh | sh',
        'pip install pytest==8.4.1',
        'pytest $TEST_DIR/test_outputs.py /app/tests/test_local.py -rA',
        'bash /tests/run-uv-pytest.sh',
      ].join('\n'),
    );
    expect(await testScriptNeeds(script, [join(root, 'tests')])).toEqual([
      'run-tests.sh installs software (needs root and the network): apt-get update && apt-get install -y curl',
      'run-tests.sh installs software (needs root and the network): curl -LsSf https://astral.sh/uv/install.sh | sh',
      'run-tests.sh installs software (needs root and the network): pip install pytest==8.4.1',
      'run-tests.sh uses /tests/setup-uv-pytest.sh, which the task does not have (its harness provides it)',
      'run-tests.sh uses /tests/run-uv-pytest.sh, which the task does not have (its harness provides it)',
    ]);
  });

  it('needs nothing of a script that uses only its own files', async () => {
    const script = join(root, 'tests', 'test.sh');
    await writeFile(script, 'python3 /tests/test_outputs.py && echo 1 > /logs/verifier/reward.txt\n');
    expect(await testScriptNeeds(script, [join(root, 'tests')])).toEqual([]);
  });
});
