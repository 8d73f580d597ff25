import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type FamilyInstance, generateFamilyTask, probeSandbox, type Report, type ReportResult } from '@gz-bench/core';
import type { Result } from 'execa';
import { describe, expect, it } from 'vitest';
import { cleanupAfterAll } from './support/cleanup.js';
import { agentPath, REPO_ROOT } from './support/paths.js';
import { pluginProjectFiles } from './support/plugin-project.js';
import { readReport } from './support/report.js';
import { runCli, runVitest } from './support/run.js';

// Generated task families end to end: the scripted family solver (fixtures/agents/family-solver.mjs)
// and its sloppy modes, through the CLI in both sandbox modes and through the plugin. Every run gets
// a private TMPDIR, which holds the case areas and the tool servers' FIFOs, so that what a run
// leaves behind is seen.

const cleanup = cleanupAfterAll();
// Without a working bubblewrap here, the cases run in the one mode there is.
const SANDBOXES = ['none', ...((await probeSandbox()).available ? ['bwrap'] : [])] as Array<'none' | 'bwrap'>;
const SOLVER = agentPath('family-solver.mjs');
const SNOOP = join(REPO_ROOT, 'test/families/snoop-agent.mjs');

const SUITE = {
  name: 'families',
  cases: [],
  families: [
    { id: 'chase', kind: 'pointerChase', seed: 7, sizes: [3, 10, 40] },
    { id: 'faults', kind: 'faultRecovery', seed: 7, sizes: [2, 5] },
    { id: 'lookup', kind: 'parallelLookup', seed: 7, sizes: [8, 12], minConcurrency: 2 },
  ],
};

function output(result: Result): string {
  return `exit ${result.exitCode}\n--- stdout\n${String(result.stdout)}\n--- stderr\n${String(result.stderr)}`;
}

/** What the solver says it did, from the last line of its output. */
function solverSaid(row: ReportResult): { calls: number; faults: number; maxInFlight: number } {
  const line = /family-solver: (\{.*\})/.exec(row.agent?.outputTail ?? '')?.[1];
  if (line === undefined) throw new Error(`no family-solver line in ${row.id}: ${row.agent?.outputTail}`);
  return JSON.parse(line);
}

/** Runs the suite through the CLI with a private TMPDIR; the report, the output, and what TMPDIR holds after. */
async function runFamilies(
  sandbox: 'none' | 'bwrap',
  cmd: (dir: string) => string,
  suite: object = SUITE,
  files: Record<string, string> = {},
) {
  const temp = await cleanup.project({ 'families.bench.json': suite, ...files });
  const tmp = join(temp.dir, 'tmp');
  await mkdir(tmp);
  const result = await runCli(
    ['run', 'families.bench.json', '--sandbox', sandbox, '--cmd', cmd(temp.dir), '--json', '--markdown', 'sweep.md'],
    { cwd: temp.dir, env: { TMPDIR: tmp }, timeoutMs: 240_000 },
  );
  let report: Report;
  try {
    report = JSON.parse(String(result.stdout));
  } catch {
    throw new Error(`no JSON report\n${output(result)}`);
  }
  const markdown = await readFile(join(temp.dir, 'sweep.md'), 'utf8').catch(() => '');
  return { result, report, markdown, left: await readdir(tmp) };
}

const row = (report: Report, id: string): ReportResult => {
  const found = report.results.find((result) => result.id === id);
  if (found === undefined) throw new Error(`no row ${id}`);
  return found;
};

describe.each(SANDBOXES)('families through the CLI, --sandbox %s', (sandbox) => {
  it('a careful agent passes every size; calls, faults and concurrency are what it did', async ({ expect }) => {
    // Under bwrap without network too: the FIFOs are paths on the read-only host.
    const suite =
      sandbox === 'bwrap'
        ? { ...SUITE, families: SUITE.families.map((family) => ({ ...family, network: false })) }
        : SUITE;
    const { result, report, markdown, left } = await runFamilies(sandbox, () => `node '${SOLVER}'`, suite);
    expect(result.exitCode, output(result)).toBe(0);
    expect(new Set(report.results.map((r) => r.sandbox))).toEqual(new Set([sandbox]));
    expect(report.results.map((r) => [r.id, r.passed])).toEqual([
      ['chase size 3', true],
      ['chase size 10', true],
      ['chase size 40', true],
      ['faults size 2', true],
      ['faults size 5', true],
      ['lookup size 8', true],
      ['lookup size 12', true],
    ]);
    for (const r of report.results) {
      const said = solverSaid(r);
      const family = r.family;
      expect(family?.calls, r.id).toBe(said.calls);
      expect(family?.calls, r.id).toBe(family?.idealCalls);
      if (family?.kind === 'parallelLookup') {
        // Measured by the server from the calls' spans: at most what the agent had running, and more than one.
        expect(family.maxConcurrency, r.id).toBeLessThanOrEqual(said.maxInFlight);
        expect(family.maxConcurrency, r.id).toBeGreaterThanOrEqual(2);
        expect(family.allRetrieved).toBe(true);
      } else {
        expect(family?.maxConcurrency, r.id).toBe(1);
      }
      if (family?.kind === 'faultRecovery') {
        expect(family.faults, r.id).toBe(family.size);
        expect(family.faults, r.id).toBe(said.faults);
        expect(family.faultsRecovered, r.id).toBe(family.size);
      }
    }
    expect(row(report, 'faults size 5').family).toMatchObject({ seed: 7, size: 5, calls: 20, idealCalls: 20 });
    expect(report.sweep?.map((s) => [s.family, s.size, s.calls, s.idealCalls, s.passes])).toEqual([
      ['chase', 3, 3, 3, 1],
      ['chase', 10, 10, 10, 1],
      ['chase', 40, 40, 40, 1],
      ['faults', 2, 8, 8, 1],
      ['faults', 5, 20, 20, 1],
      ['lookup', 8, 8, 8, 1],
      ['lookup', 12, 12, 12, 1],
    ]);
    expect(markdown).toContain('## gz-bench sweep');
    expect(markdown).toContain('| faults | 5 | - | 20 | 20 | - | 1 | 5/5 | pass |');
    // Every case area and every tool server's FIFO directory is gone.
    expect(left).toEqual([]);
  }, 240_000);

  it('an agent that searches for the hidden data before calling finds nothing', async ({ expect }) => {
    const suite = {
      name: 'snooped',
      cases: [],
      families: [
        { ...SUITE.families[1], sizes: [2] },
        { ...SUITE.families[2], sizes: [8] },
      ],
    };
    const instances: FamilyInstance[] = [
      { id: 'faults', kind: 'faultRecovery', seed: 7, size: 2 },
      { id: 'lookup', kind: 'parallelLookup', seed: 7, size: 8, minConcurrency: 2 },
    ];
    const needles = instances.flatMap((instance) => {
      const hidden = generateFamilyTask(instance).hidden as {
        secret?: string;
        hops?: Array<{ key: string }>;
        entries?: Array<{ value: string }>;
      };
      return [
        ...(hidden.secret ? [hidden.secret] : []),
        ...(hidden.hops ?? []).slice(1).map((hop) => hop.key),
        ...(hidden.entries ?? []).map((entry) => entry.value),
      ];
    });
    // A file the same search must find, so that finding nothing means something.
    const sentinel = 'sentinel-needle-3141592653';
    const reversed = [...needles, sentinel].map((needle) => [...needle].reverse().join(''));
    // The project holds the suite file, the run's TMPDIR (case areas, the tool servers' FIFOs) and the report.
    const { result, report } = await runFamilies(
      sandbox,
      (dir) => `node '${SNOOP}' ${reversed.join(' ')} -- '${dir}'`,
      suite,
      { 'sentinel.txt': sentinel },
    );
    expect(result.exitCode, output(result)).toBe(0);
    for (const r of report.results) {
      const said = /snoop: (\{.*\})/.exec(r.agent?.outputTail ?? '')?.[1];
      expect(said, r.id).toBeDefined();
      const { hits, searched } = JSON.parse(said ?? '{}') as { hits: string[]; searched: number };
      expect(
        hits.map((hit) => hit.split('/').at(-1)),
        r.id,
      ).toEqual(['sentinel.txt']);
      expect(searched, r.id).toBeGreaterThan(3);
    }
  }, 240_000);
});

describe('sloppy agents fail where they should, with the reason', () => {
  it.each([
    [
      'skip',
      {
        'chase size 10': /^answer wrong from fragment 6 of 10 \(found "\w{4}"\): a fragment skipped or misread$/,
        'faults size 2': /^answer wrong from fragment 4 of 6 /,
      },
    ],
    [
      'give-up',
      {
        'faults size 2':
          /^gave up after fault at hop 3: follow was not called again with its key \(2 of 6 hops followed\)$/,
      },
    ],
    [
      'guess',
      {
        'chase size 10': /^hop 10 skipped: the answer has 10 fragments but follow calls reached only 9 of 10 hops$/,
        'faults size 2': /^hop 6 skipped: the answer has 6 fragments but follow calls reached only 5 of 6 hops$/,
      },
    ],
    ['serial', { 'lookup size 4': /^lookups ran at most 1 at a time; this family asks for 2 in flight at once$/ }],
  ])(
    '--mode %s',
    async (mode, failures: Record<string, RegExp>) => {
      const sizes = [[10], [2], [4]];
      const suite = { ...SUITE, families: SUITE.families.map((family, index) => ({ ...family, sizes: sizes[index] })) };
      const { result, report } = await runFamilies('none', () => `node '${SOLVER}' --mode ${mode}`, suite);
      expect(result.exitCode, output(result)).toBe(Object.keys(failures).length > 0 ? 1 : 0);
      for (const r of report.results) {
        const expected = failures[r.id];
        if (expected === undefined) {
          expect(r.passed, `${r.id}: ${r.error}`).toBe(true);
          continue;
        }
        expect(r.passed, r.id).toBe(false);
        expect(r.outcome, r.id).toBe('failed');
        expect(r.failedStep, r.id).toBe('check');
        expect(r.error, r.id).toMatch(expected);
        // What the report counts is what the agent did, also when it failed.
        expect(r.family?.calls, r.id).toBe(solverSaid(r).calls);
      }
      if (mode === 'give-up')
        expect(row(report, 'faults size 2').family).toMatchObject({ faults: 1, faultsRecovered: 0, calls: 3 });
      if (mode === 'serial')
        expect(row(report, 'lookup size 4').family).toMatchObject({ maxConcurrency: 1, allRetrieved: true });
    },
    240_000,
  );
});

describe.each(SANDBOXES)('families through the plugin, sandbox %s', (sandbox) => {
  it("-t '<family> size <n>$' runs exactly that size, and the sweep prints after the table", async ({ expect }) => {
    const temp = await cleanup.project({
      ...pluginProjectFiles({ cmd: `node '${SOLVER}'`, report: 'out/report.json', markdown: 'out/sweep.md', sandbox }),
      'families.bench.json': SUITE,
    });
    const result = await runVitest(['run', '-t', 'chase size 10$'], { cwd: temp.dir, timeoutMs: 120_000 });
    expect(result.exitCode, output(result)).toBe(0);
    const report = await readReport(temp.dir, 'out/report.json');
    expect(report.results.map((r) => r.id)).toEqual(['chase size 10']);
    expect(report.results[0]?.sandbox).toBe(sandbox);
    expect(report.results[0]?.family).toEqual({
      id: 'chase',
      kind: 'pointerChase',
      seed: 7,
      size: 10,
      calls: 10,
      idealCalls: 10,
      maxConcurrency: 1,
    });
    const stdout = String(result.stdout);
    expect(stdout).toContain('gz-bench sweep');
    expect(stdout).toMatch(/chase\s+10\s+-\s+10\s+10\s+-\s+1\s+-\s+pass/);
    expect(stdout.indexOf('gz-bench sweep')).toBeGreaterThan(stdout.indexOf('1 case: 1 passed'));
    expect(await readFile(join(temp.dir, 'out/sweep.md'), 'utf8')).toContain(
      '| chase | 10 | - | 10 | 10 | - | 1 | - | pass |',
    );
  }, 120_000);
});

describe('gz-bench check-suite on families', () => {
  it('proves every size: a no-op agent fails it, its reference solution passes it, in each sandbox mode', async ({
    expect,
  }) => {
    const suite = {
      ...SUITE,
      families: SUITE.families.map((family) => ({ ...family, sizes: family.sizes.slice(0, 2) })),
    };
    const temp = await cleanup.project({ 'families.bench.json': suite });
    const tmp = join(temp.dir, 'tmp');
    await mkdir(tmp);
    for (const sandbox of SANDBOXES) {
      const result = await runCli(['check-suite', 'families.bench.json', '--sandbox', sandbox], {
        cwd: temp.dir,
        env: { TMPDIR: tmp },
        timeoutMs: 240_000,
      });
      expect(result.exitCode, output(result)).toBe(0);
      expect(String(result.stdout), output(result)).toContain(
        'all 6 cases fail with a no-op agent and pass with their own solution',
      );
    }
    expect(await readdir(tmp)).toEqual([]);
  }, 300_000);
});

describe('generated files', () => {
  /** Every file a kept workspace of each case holds, and its prompt, by case id. */
  async function keptTasks(seed: number): Promise<Record<string, Record<string, string>>> {
    const suite = {
      name: 'kept',
      cases: [],
      families: [
        { id: 'chase', kind: 'pointerChase', seed, sizes: [5] },
        { id: 'lookup', kind: 'parallelLookup', seed, sizes: [5] },
      ],
    };
    const temp = await cleanup.project({ 'families.bench.json': suite });
    const tmp = join(temp.dir, 'tmp');
    await mkdir(tmp);
    const result = await runCli(
      ['run', 'families.bench.json', '--sandbox', 'none', '--cmd', 'true', '--keep', '--json'],
      {
        cwd: temp.dir,
        env: { TMPDIR: tmp },
      },
    );
    const report: Report = JSON.parse(String(result.stdout));
    const tasks: Record<string, Record<string, string>> = {};
    for (const r of report.results) {
      const workspace = r.workspace ?? '';
      const files: Record<string, string> = { prompt: await readFile(join(workspace, '..', 'prompt.txt'), 'utf8') };
      for (const name of await readdir(workspace, { recursive: true })) {
        const path = join(workspace, name);
        if ((await readdir(path).catch(() => undefined)) === undefined) files[name] = await readFile(path, 'utf8');
      }
      tasks[r.id] = files;
    }
    return tasks;
  }

  it('are byte-identical for one seed, and differ for another', async () => {
    const first = await keptTasks(11);
    const again = await keptTasks(11);
    const other = await keptTasks(12);
    expect(Object.keys(first['chase size 5'] ?? {}).sort()).toEqual(['prompt', 'tools/follow']);
    expect(Object.keys(first['lookup size 5'] ?? {}).sort()).toEqual(['ids.txt', 'prompt', 'tools/lookup']);
    expect(again).toEqual(first);
    expect(other['chase size 5']?.prompt).not.toBe(first['chase size 5']?.prompt);
    expect(other['lookup size 5']?.['ids.txt']).not.toBe(first['lookup size 5']?.['ids.txt']);
    // The tool is the same program whatever the seed: it holds nothing of the task.
    expect(other['chase size 5']?.['tools/follow']).toBe(first['chase size 5']?.['tools/follow']);
  }, 120_000);
});
