import { expect, it, vi } from 'vitest';
import { probePidNamespace } from '../process/pid-namespace.js';
import { warmUpCommandLaunch } from './warm-up.js';

// The real probe runs; the wrapper only counts the calls.
vi.mock('../process/pid-namespace.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../process/pid-namespace.js')>();
  return { ...original, probePidNamespace: vi.fn(original.probePidNamespace) };
});

it('probes the pid namespace ahead for commands outside the sandbox, unless the sweep is asked for', async () => {
  warmUpCommandLaunch('bwrap', {});
  expect(probePidNamespace).not.toHaveBeenCalled();
  warmUpCommandLaunch('none', { GZ_BENCH_CONTAINMENT: 'sweep' });
  expect(probePidNamespace).not.toHaveBeenCalled();
  warmUpCommandLaunch('none', {});
  expect(probePidNamespace).toHaveBeenCalledTimes(1);
  // It never rejects: the first case awaits the same probe.
  await expect(vi.mocked(probePidNamespace).mock.results[0]?.value).resolves.toHaveProperty('available');
});
