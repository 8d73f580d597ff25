import { readdir, readFile } from 'node:fs/promises';
import { basename } from 'node:path';

// A task's test script may rely on what its image or harness provides: packages it installs on the fly
// (which needs root and the network), and helper scripts Terminal-Bench's harness copies beside the
// tests (setup-uv-pytest.sh). Neither is there on a host, so both are named as not reproduced.

const INSTALLS =
  /\b(apt-get|apt|yum|dnf|apk)\s+(-\S+\s+)*(install|add)\b|\bpip3?\s+install\b|\bcurl\b[^|\n]*\|\s*(ba)?sh\b/;

/**
 * What the test script `script` needs beyond the task's own files: each line that installs software,
 * and each file of `/tests` (or `$TEST_DIR`) it names that the task does not have.
 */
export async function testScriptNeeds(script: string, testsDirs: readonly string[]): Promise<string[]> {
  const text = await readFile(script, 'utf8').catch(() => '');
  const name = basename(script);
  const own = new Set([name]);
  for (const dir of testsDirs) for (const entry of await readdir(dir).catch(() => [] as string[])) own.add(entry);
  const needs: string[] = [];
  for (const line of text.split('\n').map((each) => each.trim())) {
    if (line.startsWith('#') || line === '') continue;
    if (INSTALLS.test(line)) needs.push(`${name} installs software (needs root and the network): ${line}`);
  }
  const named = text.matchAll(/(?:\$\{?TEST_DIR\}?|(?<![\w./-])\/tests)\/([A-Za-z0-9._-]+)/g);
  for (const file of new Set([...named].map((match) => match[1] as string))) {
    if (!own.has(file))
      needs.push(`${name} uses /tests/${file}, which the task does not have (its harness provides it)`);
  }
  return needs;
}
