import { describe, it } from 'vitest';
import { cleanupAfterAll } from './support/cleanup.js';
import { pluginProjectFiles } from './support/plugin-project.js';
import { runCli, runVitest } from './support/run.js';

// GZ_BENCH_DEBUG=timing shows where a run's start-up goes: each process prints its stages on stderr,
// in ms since the first process started, the workers' counted from the same origin.

const cleanup = cleanupAfterAll();
const SUITE = {
  name: 'timed',
  cases: [{ id: 'one', prompt: 'p', checks: [{ kind: 'fileExists', path: 'out.txt' }] }],
};

/** The stages printed, as `role: stage`, and their times, from stderr. */
function stages(stderr: string): { names: string[]; times: number[] } {
  const lines = stderr.split('\n').filter((line) => line.startsWith('gz-bench timing '));
  const parsed = lines.map((line) =>
    /^gz-bench timing +([\d.]+) ms(?: \(\+[\d.]+\))? {2}(main|worker) \d+: (.*)$/.exec(line),
  );
  return {
    names: parsed.map((match) => (match === null ? `unparsed` : `${match[2]}: ${match[3]}`)),
    times: parsed.map((match) => Number(match?.[1])),
  };
}

describe('GZ_BENCH_DEBUG=timing', { timeout: 60_000 }, () => {
  it('gz-bench run prints each stage of the main process and the worker, in order', async ({ expect }) => {
    const p = await cleanup.project({ 'timed.bench.json': SUITE });
    const args = ['run', 'timed.bench.json', '--cmd', 'echo x > out.txt', '--sandbox', 'none'];
    const result = await runCli(args, { cwd: p.dir, env: { GZ_BENCH_DEBUG: 'timing' } });
    expect(result.exitCode, String(result.stderr)).toBe(0);
    const { names, times } = stages(String(result.stderr));
    expect(names).toEqual([
      'main: the CLI is loaded',
      'main: gz-bench run is loaded',
      'main: the suite file is loaded',
      'main: the temp dir is usable',
      'main: stale case areas are swept',
      'main: the sandbox is resolved: none',
      'main: Vitest is created',
      'worker: case one: its slot is taken',
      'worker: case one: setup done, the agent starts',
      'worker: case one: the agent has exited',
      'worker: case one: command checks done, the rest are evaluated',
      'worker: case one: passed, its processes ended',
      'main: Vitest has run every case',
      'main: the report is printed',
    ]);
    // One origin for every process: the times only grow.
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times[0]).toBeGreaterThan(0);

    const quiet = await runCli(args, { cwd: p.dir, env: { GZ_BENCH_DEBUG: 'other' } });
    expect(quiet.exitCode).toBe(0);
    expect(String(quiet.stderr)).not.toContain('gz-bench timing');
  });

  it('vitest run with the plugin prints the stages of its own process and workers', async ({ expect }) => {
    const p = await cleanup.project({
      ...pluginProjectFiles({ cmd: 'echo x > out.txt' }),
      'bench/timed.bench.json': SUITE,
    });
    const result = await runVitest(['run'], { cwd: p.dir, env: { GZ_BENCH_DEBUG: 'timing' } });
    expect(result.exitCode, String(result.stderr)).toBe(0);
    const { names } = stages(String(result.stderr));
    expect(names).toContain('main: the sandbox is resolved: none');
    expect(names).toContain('worker: case one: passed, its processes ended');
  });
});
