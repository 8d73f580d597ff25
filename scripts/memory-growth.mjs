#!/usr/bin/env node
// Measures how the harness's memory grows with the number of cases: runs `gz-bench run` on suites of
// trivial cases (the command writes a file; four checks) and samples the whole process tree's VmRSS
// (/proc/<pid>/status) of the harness: the CLI, its Vitest workers and their guardians, every `node`
// process below the CLI. The agents' own shells are not the harness and are left out.
//
//   node scripts/memory-growth.mjs [--cases 100,1000] [--sandbox none|bwrap] [--runs 1] [--cmd TEMPLATE] [--logs on]
//
// `--cmd` replaces the trivial agent (its cases' checks still expect `out.txt` and a `done` line), and
// `--logs on` has the run write its full output logs (to a temp dir), e.g. for an agent that prints 1 GB:
//   --cases 1 --logs on --cmd 'echo done > out.txt; echo done; head -c 1073741824 /dev/zero'
//
// Prints the peak for each number of cases and the growth between the first and the last.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const CLI = process.env.GZ_BENCH_CLI ?? fileURLToPath(new URL('../node_modules/.bin/gz-bench', import.meta.url));
const SAMPLE_MS = 100;

const { values } = parseArgs({
  options: {
    cases: { type: 'string', default: '100,1000' },
    sandbox: { type: 'string', default: 'none' },
    runs: { type: 'string', default: '1' },
    cmd: { type: 'string', default: 'echo done > out.txt; echo done' },
    logs: { type: 'string' },
  },
});
const counts = values.cases.split(',').map(Number);
const runs = Number(values.runs);

/** A suite of `count` trivial cases. */
function trivialSuite(count) {
  return {
    name: 'trivial',
    cases: Array.from({ length: count }, (_, index) => ({
      id: `case-${index}`,
      prompt: 'write out.txt',
      checks: [
        { kind: 'fileExists', path: 'out.txt' },
        { kind: 'fileContains', path: 'out.txt', text: 'done' },
        { kind: 'command', run: 'test -s out.txt' },
        { kind: 'outputMatches', pattern: '^done$', flags: 'm' },
      ],
    })),
  };
}

/** Parent pid, name and VmRSS (KiB) of every process we can read. */
function processTable() {
  const table = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      const field = (name) => new RegExp(`^${name}:\\s*(.*)$`, 'm').exec(status)?.[1] ?? '';
      table.set(Number(entry), {
        ppid: Number(field('PPid')),
        name: field('Name'),
        rssKiB: Number.parseInt(field('VmRSS') || '0', 10),
        role: role(Number(entry)),
      });
    } catch {}
  }
  return table;
}

/** What a harness process is, from its command line: the CLI, a Vitest worker or a guardian. */
function role(pid) {
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    if (cmdline.includes('guardian-main')) return 'guardian';
    if (cmdline.includes('gz-bench')) return 'cli';
    return 'worker';
  } catch {
    return 'gone';
  }
}

/** Sum of VmRSS of the `node` processes in the tree below `root` (itself included), and how many. */
function treeRss(root) {
  const table = processTable();
  const children = new Map();
  for (const [pid, info] of table) {
    if (!children.has(info.ppid)) children.set(info.ppid, []);
    children.get(info.ppid).push(pid);
  }
  let rssKiB = 0;
  let processes = 0;
  const byRole = {};
  const stack = [root];
  while (stack.length > 0) {
    const pid = stack.pop();
    const info = table.get(pid);
    if (info?.name === 'node' || info?.name === 'gz-bench' || info?.name?.startsWith('node')) {
      rssKiB += info.rssKiB;
      processes += 1;
      byRole[info.role] = (byRole[info.role] ?? 0) + info.rssKiB;
    }
    stack.push(...(children.get(pid) ?? []));
  }
  return { rssKiB, processes, byRole };
}

async function measure(count) {
  const dir = await mkdtemp(join(tmpdir(), 'gz-bench-memory-'));
  const tmp = join(dir, 'tmp');
  await mkdir(tmp);
  await writeFile(join(dir, 'trivial.json'), JSON.stringify(trivialSuite(count)));
  const started = performance.now();
  const child = spawn(
    CLI,
    [
      'run',
      'trivial.json',
      '--cmd',
      values.cmd,
      '--json',
      '--sandbox',
      values.sandbox,
      ...(values.logs === undefined ? [] : ['--logs', join(dir, 'logs')]),
    ],
    { cwd: dir, env: { ...process.env, TMPDIR: tmp }, stdio: ['ignore', 'pipe', 'ignore'] },
  );
  let stdout = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  let peak = { rssKiB: 0, processes: 0, byRole: {} };
  const roles = {};
  const sampler = setInterval(() => {
    const now = treeRss(child.pid);
    if (now.rssKiB > peak.rssKiB) peak = now;
    for (const [name, kib] of Object.entries(now.byRole)) roles[name] = Math.max(roles[name] ?? 0, kib);
  }, SAMPLE_MS);
  // 'close', not 'exit': the report may still be in the pipe when the process exits.
  const exitCode = await new Promise((resolve) => child.on('close', resolve));
  clearInterval(sampler);
  const seconds = (performance.now() - started) / 1000;
  const report = JSON.parse(stdout);
  const left = await readdir(tmp);
  await rm(dir, { recursive: true, force: true });
  if (exitCode !== 0 || report.summary.passed !== count) {
    throw new Error(`run of ${count} cases failed: exit ${exitCode}, ${report.summary.passed} passed`);
  }
  const perRole = Object.entries(roles)
    .map(([name, kib]) => `${name} ${(kib / 1024).toFixed(1)}`)
    .join(', ');
  return { count, peakMiB: peak.rssKiB / 1024, processes: peak.processes, seconds, left: left.length, perRole };
}

const results = [];
for (const count of counts) {
  for (let run = 0; run < runs; run += 1) {
    const result = await measure(count);
    results.push(result);
    console.log(
      `${String(count).padStart(5)} cases: peak RSS ${result.peakMiB.toFixed(1)} MiB over ${result.processes} node processes (peaks in MiB: ${result.perRole}), ${result.seconds.toFixed(1)} s, ${result.left} entries left in TMPDIR`,
    );
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const peakOf = (count) => median(results.filter((r) => r.count === count).map((r) => r.peakMiB));
const first = counts[0];
const last = counts[counts.length - 1];
const growth = peakOf(last) - peakOf(first);
console.log(
  `growth from ${first} to ${last} cases: ${growth.toFixed(1)} MiB (target ≤ 50 MiB: ${growth <= 50 ? 'met' : 'MISSED'})`,
);
