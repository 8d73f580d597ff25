import { cp, stat } from 'node:fs/promises';
import { isAbsolute, relative } from 'node:path';
import { pathInImage } from '../images/index.js';
import { locateBwrap } from '../process/sandbox.js';
import type { Case } from '../suite/schema.js';
import { suitePath } from '../suite/suite-path.js';
import { BaseImageMissing, type BuildRequest, type BuiltImage, buildImage } from './dockerfile/build-image.js';
import { engineBuild } from './engines/engine-build.js';
import { engineImage } from './engines/engine-image.js';
import { type ContainerEngine, type EngineMode, resolveEngine } from './engines/engines.js';
import { buildPaths, type HostFallback, hostFallback } from './host-fallback.js';
import { ImageError, imageCacheDir, type StoredImage, storedImage } from './image-store.js';
import { nodeProblem } from './node-in-image.js';

// What a case with an `environment` needs before its area is made: the image unpacked (once per
// digest, kept between runs), and proof that the host's node runs in it. Both answers are kept per
// process and digest, so the cases of a suite that share an image ask once.

/** The image a case runs in, ready for its trials. */
export interface CaseImage {
  image: StoredImage;
  /** The workspace's path in the image: the case's workdir, else the image's WorkingDir; undefined: its host path. */
  workdir: string | undefined;
  /** What of the image's configuration is not applied, for the row's warnings. */
  warnings: string[];
}

/** The longest a Dockerfile's RUN may take, unless the case's setupTimeoutSec says. */
const DEFAULT_STEP_TIMEOUT_SEC = 1800;

const nodeChecks = new Map<string, Promise<string | undefined>>();

/**
 * The image of a case with an `environment`, or why the case cannot run in it (one line, for a
 * not-run result), or `host` with the reason when its Dockerfile's base is not here and the
 * environment falls back to the host. `sandbox` is the sandbox the run resolved: the image's root
 * needs bwrap. `engine` says what builds Dockerfiles and holds named images.
 */
export async function caseImage(
  testCase: Case,
  suiteDir: string | undefined,
  sandbox: 'bwrap' | 'none',
  engineMode: EngineMode = 'auto',
): Promise<CaseImage | HostFallback | string> {
  const environment = testCase.environment;
  if (environment === undefined) throw new TypeError('caseImage needs a case with an environment');
  const at = (path: string) => suitePath(path, suiteDir);
  const { dockerfile, context } = buildPaths(environment, suiteDir);
  const fallBack = (reason: string) => hostFallback(reason, dockerfile, context, environment.ignore ?? []);
  if (sandbox !== 'bwrap') {
    const needed = 'an environment needs the bwrap sandbox, which runs the image as the root of every command';
    if (environment.fallback === 'host') return fallBack(`${needed}; this run has no sandbox`);
    return `${needed}; install bubblewrap and run with --sandbox bwrap (sandbox: "bwrap")`;
  }
  const warnings: string[] = [];
  let image: StoredImage;
  try {
    const engine = environment.archive === undefined ? await resolveEngine(engineMode) : 'bwrap';
    if (typeof engine === 'object') return engine.problem;
    if (environment.archive !== undefined) image = await storedImage(at(environment.archive));
    else if (environment.image !== undefined) {
      if (engine === 'bwrap') {
        return `the image ${environment.image} is of a container engine's store, and no docker or podman works here (engine: "${engineMode}"); name an archive of it instead ("archive": "image.tar", from docker save)`;
      }
      image = await engineImage(engine, environment.image, imageCacheDir());
    } else {
      const built = await builtOnce(engine, {
        dockerfile: dockerfile as string,
        context,
        ...(environment.ignore && { ignore: environment.ignore }),
        baseImages: Object.fromEntries(
          Object.entries(testCase.baseImages ?? {}).map(([name, path]) => [name, at(path)]),
        ),
        cacheDir: imageCacheDir(),
        bwrap: locateBwrap() ?? 'bwrap',
        stepTimeoutMs: (testCase.setupTimeoutSec ?? DEFAULT_STEP_TIMEOUT_SEC) * 1000,
        onProgress: (line) =>
          process.stderr.write(`gz-bench: building ${shownPath(dockerfile as string)}: ${line.slice(0, 200)}\n`),
      });
      image = built.image;
      for (const { from, to } of built.substitutions) warnings.push(`base image ${from} is ${to} (baseImages)`);
    }
  } catch (error) {
    if (error instanceof BaseImageMissing && environment.fallback === 'host') return fallBack(error.message);
    if (error instanceof ImageError) return error.message;
    throw error;
  }
  let check = nodeChecks.get(image.digest);
  if (check === undefined) {
    check = nodeProblem(image.rootfs);
    nodeChecks.set(image.digest, check);
  }
  const problem = await check;
  if (problem !== undefined) {
    return `the image ${environment.archive ?? `of ${environment.dockerfile}`} cannot run this case: ${problem}`;
  }
  const { workingDir, user } = image.config;
  const ownDir = workingDir !== undefined && workingDir !== '/' ? workingDir : undefined;
  const task = testCase.layout === 'task' ? '/app' : undefined;
  if (user !== undefined && !['', 'root', '0', '0:0', 'root:root'].includes(user)) {
    warnings.push(`not reproduced here: the image's User "${user}" (commands run as root in the image)`);
  }
  return { image, workdir: testCase.workdir ?? ownDir ?? task, warnings };
}

/** A path as progress shows it: from the current directory when it is below it. */
function shownPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel.startsWith('..') || isAbsolute(rel) ? path : rel;
}

const builds = new Map<string, Promise<BuiltImage>>();

/** One build per engine, Dockerfile, context and bases in a process, its failure too: the cases that share it wait for it. */
function builtOnce(engine: ContainerEngine | 'bwrap', request: BuildRequest): Promise<BuiltImage> {
  const key = JSON.stringify([
    engine,
    request.dockerfile,
    request.context,
    request.ignore,
    request.baseImages,
    request.cacheDir,
  ]);
  let built = builds.get(key);
  if (built === undefined) {
    built = engine === 'bwrap' ? buildImage(request) : engineBuild(engine, request);
    builds.set(key, built);
  }
  return built;
}

/**
 * Copies what the image holds at `workdir` into the workspace (links as they are), before the
 * fixture and setup, which may then overwrite it. Nothing when the image has no such directory.
 */
export async function seedFromImage(rootfs: string, workdir: string, workspace: string): Promise<void> {
  const source = await pathInImage(rootfs, workdir).catch(() => undefined);
  if (source === undefined || !(await stat(source).catch(() => undefined))?.isDirectory()) return;
  await cp(source, workspace, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true, force: true });
}
