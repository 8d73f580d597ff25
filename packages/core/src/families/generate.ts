import { chaseTask } from './chase.js';
import { lookupTask } from './lookup.js';
import type { FamilyTask } from './task.js';
import type { FamilyInstance, FamilyKind } from './types.js';

/** One generator per family kind; a kind missing here is a type error. */
const generators: { readonly [K in FamilyKind]: (instance: FamilyInstance) => FamilyTask } = {
  pointerChase: chaseTask,
  faultRecovery: chaseTask,
  parallelLookup: lookupTask,
};

/** The task of one size of a family: the same instance always gives the same bytes. */
export function generateFamilyTask(instance: FamilyInstance): FamilyTask {
  return generators[instance.kind](instance);
}
