import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signalProcessGroup } from '../process/kill-tree.js';
import { CONTAINMENT_ENV, probePidNamespace } from '../process/pid-namespace.js';
import { compileForChild, coreSources } from '../process/test-support/child-modules.js';
import { killStrays, shellQuote } from '../process/test-support/processes.js';
import type { CaseResult } from '../report/model.js';
import type { Case } from '../suite/schema.js';
import { removeTree } from '../workspace/remove-tree.js';
import { runCase } from './run-case.js';

// What a command leaves running does not outlive its phase: the setup's leftovers are gone when the
// agent starts, the agent's when the checks start, and everything when the case ends. In a pid
// namespace the kernel sees to it, without any sweep; without one, the token sweep does, between
// the phases (see leftover-sweep.ts).

const namespaceWorks = (await probePidNamespace()).available;
const isRoot = process.getuid?.() === 0;

let dir: string;
let counter: string;
const markers: string[] = [];

beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'gzb-leftovers-')));
  await chmod(dir, 0o755);
  // Prints how many running processes' command lines hold the marker whose two halves it is given:
  // its own command line never holds it whole.
  counter = join(dir, 'count-marker.mjs');
  await writeFile(
    counter,
    `import { readdirSync, readFileSync } from 'node:fs';
const marker = process.argv[2] + process.argv[3];
let count = 0;
for (const pid of readdirSync('/proc')) {
  if (!/^\\d+$/.test(pid) || Number(pid) === process.pid) continue;
  try {
    const stat = readFileSync('/proc/' + pid + '/stat', 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    if (state !== 'Z' && state !== 'X' && readFileSync('/proc/' + pid + '/cmdline', 'utf8').includes(marker)) count += 1;
  } catch {}
}
process.stdout.write(String(count));
`,
    { mode: 0o644 },
  );
});
afterAll(() => removeTree(dir));
afterEach(() => {
  for (const marker of markers.splice(0)) {
    // A daemon's shell leads a session and group of its own (setsid) with its `sleep` in it: the group
    // goes, or the `sleep` would outlive the test.
    const daemons = pidsWithMarker(marker);
    for (const pid of daemons) signalProcessGroup(pid, 'SIGKILL');
    killStrays(daemons);
  }
});

function newMarker(): string {
  const marker = `gzmark-${randomUUID()}`;
  markers.push(marker);
  return marker;
}

/**
 * A daemon that leaves the process group (setsid), its environment scrubbed with `env -i` or not;
 * `doubleFork` also orphans it.
 */
function daemon(marker: string, scrubbed: boolean, doubleFork = false): string {
  const [head, tail] = [marker.slice(0, 6), marker.slice(6)];
  const start = `setsid ${scrubbed ? 'env -i ' : ''}/bin/sh -c "sleep 300; : $M${tail}" < /dev/null > /dev/null 2>&1 &`;
  return `M=${head}; ${doubleFork ? `(${start});` : start}`;
}

/** A command that writes to `file` how many processes of `marker` run. */
function count(marker: string, file: string): string {
  return `${shellQuote(process.execPath)} ${shellQuote(counter)} ${marker.slice(0, 6)} ${marker.slice(6)} > ${file}`;
}

function pidsWithMarker(marker: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry) && Number(entry) !== process.pid)
    .map(Number)
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
        return state !== 'Z' && state !== 'X' && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
      } catch {
        return false;
      }
    });
}

/**
 * A case whose setup, agent and first command check each start a daemon (after counting, in the
 * agent and the checks, those of the phases before), and whose checks read the counts. The agent's
 * daemon is double-forked, the others only leave their process group.
 */
function phasesCase(markers: { setup: string; agent: string; check: string }, scrubbed: boolean): Case {
  return {
    id: 'phases',
    prompt: 'p',
    setup: [`${daemon(markers.setup, scrubbed)} sleep 0.3; ${count(markers.setup, 'setup-saw-own')}`],
    checks: [
      { kind: 'command', run: `${count(markers.agent, 'check-saw-agent')}; ${daemon(markers.check, scrubbed)} true` },
      // The setup's daemon ran, and was gone when the agent started.
      { kind: 'fileContains', path: 'setup-saw-own', text: '1' },
      { kind: 'fileContains', path: 'agent-saw-setup', text: '0' },
      // The agent's daemon ran, and was gone when the checks started.
      { kind: 'fileContains', path: 'agent-saw-own', text: '1' },
      { kind: 'fileContains', path: 'check-saw-agent', text: '0' },
    ],
  };
}

function agentCommand(markers: { setup: string; agent: string }, scrubbed: boolean): string {
  return `${count(markers.setup, 'agent-saw-setup')}; ${daemon(markers.agent, scrubbed, true)} sleep 0.3; ${count(markers.agent, 'agent-saw-own')}`;
}

async function runPhases(
  containment: 'auto' | 'sweep',
  scrubbed: boolean,
): Promise<{ result: CaseResult; left: number[] }> {
  const phases = { setup: newMarker(), agent: newMarker(), check: newMarker() };
  const env = { ...process.env, [CONTAINMENT_ENV]: containment };
  const result = await runCase(phasesCase(phases, scrubbed), {
    cmd: agentCommand(phases, scrubbed),
    tmpDir: dir,
    env,
  });
  return { result, left: Object.values(phases).flatMap(pidsWithMarker) };
}

describe('the leftovers of a case', () => {
  it.runIf(namespaceWorks)(
    'in a pid namespace: end with their phase even with a scrubbed environment, which no sweep finds',
    async () => {
      const { result, left } = await runPhases('auto', true);
      expect(result.checkResults.map((check) => check.message ?? 'ok')).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
      expect(result.passed).toBe(true);
      expect(left).toEqual([]);
    },
    30_000,
  );

  it('with the sweep alone: end with their phase when they carry the case token', async () => {
    const { result, left } = await runPhases('sweep', false);
    expect(result.checkResults.map((check) => check.message ?? 'ok')).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    expect(result.passed).toBe(true);
    expect(left).toEqual([]);
  }, 30_000);

  it('with the sweep alone: a daemon that scrubbed its environment escapes, as documented', async () => {
    const marker = newMarker();
    const result = await runCase(
      { id: 'escape', prompt: 'p', checks: [] },
      { cmd: `${daemon(marker, true)} sleep 0.3`, tmpDir: dir, env: { ...process.env, [CONTAINMENT_ENV]: 'sweep' } },
    );
    expect(result.passed).toBe(true);
    expect(pidsWithMarker(marker)).toHaveLength(1);
  }, 30_000);
});

describe.runIf(isRoot && namespaceWorks)('the leftovers of a case run by an ordinary user (as nobody)', () => {
  let modules: Awaited<ReturnType<typeof compileForChild>>;
  beforeAll(async () => {
    modules = await compileForChild(await coreSources());
    await writeFile(
      join(modules.dir, 'run-case.mjs'),
      `import { runCase } from './case/run-case.js';
const [testCase, cmd, tmpDir] = process.argv.slice(2);
const result = await runCase(JSON.parse(testCase), { cmd, tmpDir });
process.stdout.write(JSON.stringify(result));
`,
    );
  });
  afterAll(() => modules?.dispose());

  it('end with their phase in a user and pid namespace, scrubbed environment and all', async () => {
    const phases = { setup: newMarker(), agent: newMarker(), check: newMarker() };
    const tmp = await mkdtemp(join(dir, 'nobody-'));
    await chmod(tmp, 0o777);
    const { stdout } = await promisify(execFile)(
      'runuser',
      [
        '-u',
        'nobody',
        '--',
        process.execPath,
        join(modules.dir, 'run-case.mjs'),
        JSON.stringify(phasesCase(phases, true)),
        agentCommand(phases, true),
        tmp,
      ],
      { cwd: '/', timeout: 60_000 },
    );
    const result = JSON.parse(stdout) as CaseResult;
    expect(result.checkResults.map((check) => check.message ?? 'ok')).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    expect(result.passed).toBe(true);
    expect(Object.values(phases).flatMap(pidsWithMarker)).toEqual([]);
  }, 60_000);
});
