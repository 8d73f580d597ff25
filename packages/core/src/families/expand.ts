import type { Case, Suite } from '../suite/schema.js';
import { generateFamilyTask } from './generate.js';
import { type FamilyInstance, familyCaseId } from './types.js';

/**
 * The suite with one case per size of each family after its own cases. A generated case carries its
 * prompt, its reference solution and its `family` instance only: the runner regenerates the task, so that the hidden data
 * never travels with the suite (into the generated test module, `vitest list`, the report).
 */
export function expandFamilies(suite: Suite): Suite {
  if (suite.families === undefined || suite.families.length === 0) return suite;
  const generated = suite.families.flatMap((family) =>
    family.sizes.map((size): Case => {
      const instance: FamilyInstance = {
        id: family.id,
        kind: family.kind,
        seed: family.seed,
        size,
        ...(family.minConcurrency !== undefined && { minConcurrency: family.minConcurrency }),
      };
      const task = generateFamilyTask(instance);
      return {
        id: familyCaseId(family.id, size),
        prompt: task.prompt,
        checks: [],
        family: instance,
        // What a careful agent would run, for `gz-bench check-suite`: it reads only what agents see.
        solution: task.solution,
        ...(family.timeoutSec !== undefined && { timeoutSec: family.timeoutSec }),
        ...(family.network !== undefined && { network: family.network }),
        ...(family.tags !== undefined && { tags: family.tags }),
        ...(family.meta !== undefined && { meta: family.meta }),
      };
    }),
  );
  return { ...suite, cases: [...suite.cases, ...generated] };
}
