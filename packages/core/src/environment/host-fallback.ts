import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Case } from '../suite/schema.js';
import { suitePath } from '../suite/suite-path.js';
import { readDockerfile } from '../tasks/dockerfile.js';
import { contextEntries } from '../tasks/task-files.js';
import { baseArchive, baseImageNames } from './dockerfile/build-image.js';
import { engineImageId } from './engines/engine-image.js';
import { type EngineMode, resolveEngine } from './engines/engines.js';

// An environment with `fallback: "host"` runs on the host when its image cannot be had here (its
// base image is not named in `baseImages`, or there is no bwrap). The host then stands in for the
// image as it does for a task without one: what of the Dockerfile the host does not reproduce (its
// base, its RUN lines, files put outside the workdir) is named, one warning each.

/** Why a case runs on the host instead of its image, and the Dockerfile's lines the host lacks. */
export interface HostFallback {
  host: string;
  notReproduced: string[];
}

/** The fallback of an environment built from `dockerfile` in `context` (ignoring `ignore`), for `reason`. */
export async function hostFallback(
  reason: string,
  dockerfile: string | undefined,
  context: string,
  ignore: readonly string[],
): Promise<HostFallback> {
  if (dockerfile === undefined) return { host: reason, notReproduced: [] };
  const text = await readFile(dockerfile, 'utf8').catch(() => '');
  return { host: reason, notReproduced: await hostLacks(text, context, ignore) };
}

/** The lines of a Dockerfile's `text` the host does not reproduce, its context's entries at hand for `COPY .`. */
async function hostLacks(text: string, context: string, ignore: readonly string[]): Promise<string[]> {
  return readDockerfile(text, await contextEntries(context, ignore)).notReproduced;
}

/** Where an environment's Dockerfile and its build context are: the context is the Dockerfile's folder unless named. */
export function buildPaths(
  environment: NonNullable<Case['environment']>,
  suiteDir: string | undefined,
): { dockerfile: string | undefined; context: string } {
  const dockerfile = environment.dockerfile === undefined ? undefined : suitePath(environment.dockerfile, suiteDir);
  return { dockerfile, context: suitePath(environment.context ?? dirname(dockerfile ?? '.'), suiteDir) };
}

/**
 * What `validate`, `import` and `check-suite` say of a case whose Dockerfile falls back to the host
 * because a base image it names is not in `baseImages`: that, and the Dockerfile's lines the host
 * will not reproduce. Nothing for a case whose image can be built.
 */
export async function unbuiltEnvironment(
  testCase: Case,
  suiteDir: string,
  engineMode: EngineMode = 'auto',
): Promise<string[]> {
  const environment = testCase.environment;
  if (environment?.dockerfile === undefined || environment.fallback !== 'host') return [];
  const { dockerfile, context } = buildPaths(environment, suiteDir);
  const text = await readFile(dockerfile as string, 'utf8').catch(() => undefined);
  if (text === undefined) return [`the image of ${environment.dockerfile}: the file is not there`];
  const unnamed = baseImageNames(text).filter((name) => baseArchive(name, testCase.baseImages ?? {}) === undefined);
  if (unnamed.length === 0) return [];
  // An engine builds on what its own store holds.
  const engine = await resolveEngine(engineMode);
  const missing: string[] = [];
  for (const name of unnamed) {
    if (typeof engine === 'string' && engine !== 'bwrap' && (await engineImageId(engine, name)) !== undefined) continue;
    missing.push(name);
  }
  if (missing.length === 0) return [];
  const named = missing.map((name) => `--base-image ${name}=ARCHIVE`).join(' and ');
  return [
    `the image of ${environment.dockerfile} (the case runs on the host until ${named} names its base)`,
    ...(await hostLacks(text, context, environment.ignore ?? [])),
  ];
}
