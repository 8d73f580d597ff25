import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { chmod, cp, lstat, mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, posix } from 'node:path';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { globRegExp } from '../../changes/exclude.js';
import { applyLayer, type ImageConfig, pathInImage } from '../../images/index.js';
import { ImageError, type StoredImage, storedImage, storeRootfs } from '../image-store.js';
import { type BuildContext, contextPath, inContext, readBuildContext } from './build-context.js';
import { DockerfileError, expandVars, type Instruction, keyValuePairs, parseDockerfile } from './parse-dockerfile.js';
import { runStep } from './run-step.js';

// A Dockerfile built without a daemon, for the bwrap engine: each stage starts as a copy of its
// base (an image of `baseImages`, an earlier stage, or `scratch`), RUN steps run in bwrap with the
// stage as `/`, COPY and ADD take files of the build context only. The image is kept in the store
// under a digest of the Dockerfile, its context and its bases, so a second run builds nothing.
// What the image declares for a container rather than for its files (CMD, ENTRYPOINT, EXPOSE,
// VOLUME, HEALTHCHECK…) has no meaning for a case and is read past.

/** A Dockerfile to build, every path absolute. */
export interface BuildRequest {
  dockerfile: string;
  context: string;
  /** Patterns of the context left out, besides its .dockerignore. */
  ignore?: readonly string[];
  /** Images for FROM names, by name: archive paths. */
  baseImages: Readonly<Record<string, string>>;
  cacheDir: string;
  bwrap: string;
  /** The longest one RUN may take. */
  stepTimeoutMs: number;
  /** A line per step as the build goes. */
  onProgress?: (line: string) => void;
}

/** A built image, and the base images that stood in for FROM names. */
export interface BuiltImage {
  image: StoredImage;
  substitutions: { from: string; to: string }[];
}

/** Raised when a FROM names an image that is not here: neither in `baseImages` nor an earlier stage. */
export class BaseImageMissing extends ImageError {
  override name = 'BaseImageMissing';
}

// Instructions about the container rather than the image's files.
const READ_PAST = new Set([
  'CMD',
  'ENTRYPOINT',
  'EXPOSE',
  'LABEL',
  'MAINTAINER',
  'VOLUME',
  'HEALTHCHECK',
  'STOPSIGNAL',
  'ONBUILD',
]);

const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** What every builder starts from: the Dockerfile's text and its build context, each read or an ImageError. */
export async function readBuildInputs(request: BuildRequest): Promise<{ text: string; context: BuildContext }> {
  const text = await readFile(request.dockerfile, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new ImageError(`the Dockerfile ${request.dockerfile} is not there (${error.code})`);
  });
  const context = await readBuildContext(request.context, request.ignore).catch((error: NodeJS.ErrnoException) => {
    throw new ImageError(`the build context ${request.context} cannot be read (${error.code ?? error.message})`);
  });
  return { text, context };
}

/** Builds (or finds built) the image of `request.dockerfile`. */
export async function buildImage(request: BuildRequest): Promise<BuiltImage> {
  const name = request.dockerfile;
  const { text, context } = await readBuildInputs(request);
  let instructions: Instruction[];
  try {
    instructions = parseDockerfile(text);
  } catch (error) {
    if (error instanceof DockerfileError) throw new ImageError(`${name}: ${error.message}`);
    throw error;
  }
  const plan = planStages(instructions, name);
  // Bases first: their digests are part of the build's.
  const substitutions: { from: string; to: string }[] = [];
  const bases = new Map<string, StoredImage>();
  for (const stage of plan.stages) {
    if (stage.base.kind !== 'image' || bases.has(stage.base.name)) continue;
    const archive = baseArchive(stage.base.name, request.baseImages);
    if (archive === undefined) {
      throw new BaseImageMissing(
        `${name}:${stage.line}: the base image ${stage.base.name} is not here; name an archive of it in "baseImages" ({ "${stage.base.name}": "images/base.tar" }): no registry is reached`,
      );
    }
    bases.set(stage.base.name, await storedImage(archive, request.cacheDir));
    substitutions.push({ from: stage.base.name, to: archive });
  }
  const digest = `sha256:${createHash('sha256')
    .update(
      JSON.stringify({ text, context: context.digest, bases: [...bases].map(([from, image]) => [from, image.digest]) }),
    )
    .digest('hex')}`;
  const image = await storeRootfs(request.cacheDir, digest, (staging) =>
    runStages(plan, { request, context, bases, staging }),
  );
  return { image, substitutions };
}

/** The images a Dockerfile's FROM lines name (not its stages, not `scratch`); none when it cannot be read. */
export function baseImageNames(text: string): string[] {
  try {
    const plan = planStages(parseDockerfile(text), 'Dockerfile');
    return [...new Set(plan.stages.flatMap((stage) => (stage.base.kind === 'image' ? [stage.base.name] : [])))];
  } catch (error) {
    if (error instanceof ImageError || error instanceof DockerfileError) return [];
    throw error;
  }
}

/** Where a FROM's base comes from. */
type Base = { kind: 'image'; name: string } | { kind: 'stage'; index: number } | { kind: 'scratch' };

interface Stage {
  name: string | undefined;
  base: Base;
  line: number;
  steps: Instruction[];
}

interface Plan {
  stages: Stage[];
  /** ARGs declared before the first FROM, for the FROM lines. */
  globalArgs: Record<string, string>;
  /** Steps in all, for `step n/m`. */
  total: number;
}

function planStages(instructions: readonly Instruction[], file: string): Plan {
  const globalArgs: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') {
      const [image, as, stageName] = expandVars(instruction.text, globalArgs).trim().split(/\s+/);
      if (image === undefined || image === '' || (as !== undefined && (as.toUpperCase() !== 'AS' || !stageName))) {
        throw new ImageError(`${file}:${instruction.line}: cannot read FROM ${instruction.text}`);
      }
      const earlier = stages.findIndex((stage) => stage.name !== undefined && stage.name === image.toLowerCase());
      const base: Base =
        earlier >= 0
          ? { kind: 'stage', index: earlier }
          : image === 'scratch'
            ? { kind: 'scratch' }
            : { kind: 'image', name: image };
      stages.push({ name: stageName?.toLowerCase(), base, line: instruction.line, steps: [] });
    } else if (stages.length === 0) {
      if (instruction.keyword !== 'ARG') {
        throw new ImageError(`${file}:${instruction.line}: ${instruction.keyword} before the first FROM`);
      }
      for (const [argName, value] of pairsOf(instruction, file)) globalArgs[argName] = value ?? '';
    } else (stages.at(-1) as Stage).steps.push(instruction);
  }
  if (stages.length === 0) throw new ImageError(`${file}: no FROM line`);
  return { stages, globalArgs, total: stages.reduce((sum, stage) => sum + stage.steps.length + 1, 0) };
}

function pairsOf(instruction: Instruction, file: string): [string, string | undefined][] {
  try {
    return keyValuePairs(instruction.text, instruction.keyword, instruction.line);
  } catch (error) {
    if (error instanceof DockerfileError) throw new ImageError(`${file}: ${error.message}`);
    throw error;
  }
}

/** The archive that `baseImages` names for a FROM image, trying the name with and without `:latest` and `docker.io/library/`. */
export function baseArchive(image: string, baseImages: Readonly<Record<string, string>>): string | undefined {
  const bare = image.replace(/^(?:docker\.io\/)?(?:library\/)?/, '');
  const tagged = /[:@][^/]*$/.test(bare) ? bare : `${bare}:latest`;
  for (const candidate of [image, bare, tagged, tagged.replace(/:latest$/, '')]) {
    const archive = baseImages[candidate];
    if (archive !== undefined) return archive;
  }
  return undefined;
}

interface BuildState {
  request: BuildRequest;
  context: BuildContext;
  bases: ReadonlyMap<string, StoredImage>;
  staging: string;
}

/** A stage as the build goes. */
interface StageState {
  /** Its `AS` name, for `COPY --from`. */
  name: string | undefined;
  rootfs: string;
  env: Map<string, string>;
  args: Record<string, string>;
  workdir: string;
  user: string | undefined;
  shell: string[];
}

async function runStages(plan: Plan, state: BuildState): Promise<ImageConfig> {
  const { request, staging } = state;
  const done: StageState[] = [];
  let step = 0;
  for (const [index, stage] of plan.stages.entries()) {
    step += 1;
    const rootfs = join(staging, `stage-${index}`);
    const current = await startStage(stage, rootfs, state, done);
    request.onProgress?.(`step ${step}/${plan.total}: FROM ${describeBase(stage.base, plan)}`);
    for (const instruction of stage.steps) {
      step += 1;
      request.onProgress?.(`step ${step}/${plan.total}: ${written(instruction)}`);
      await runInstruction(instruction, current, state, done, plan, `step ${step}/${plan.total}`);
    }
    done.push(current);
  }
  const last = done.at(-1) as StageState;
  await rename(last.rootfs, join(staging, 'rootfs'));
  // Earlier stages are scaffolding: only the last one is the image.
  await Promise.all(done.slice(0, -1).map((stage) => rm(stage.rootfs, { recursive: true, force: true })));
  return {
    env: [...last.env].map(([name, value]) => `${name}=${value}`),
    ...(last.workdir !== '/' && { workingDir: last.workdir }),
    ...(last.user !== undefined && { user: last.user }),
  };
}

/** An instruction as written, flags included, for progress lines. */
function written(instruction: Instruction): string {
  const flags = Object.entries(instruction.flags).map(([name, value]) => `--${name}=${value} `);
  return `${instruction.keyword} ${flags.join('')}${instruction.text}`;
}

function describeBase(base: Base, plan: Plan): string {
  if (base.kind === 'image') return base.name;
  if (base.kind === 'scratch') return 'scratch';
  return plan.stages[base.index]?.name ?? `stage ${base.index}`;
}

async function startStage(
  stage: Stage,
  rootfs: string,
  state: BuildState,
  done: readonly StageState[],
): Promise<StageState> {
  const fresh: StageState = {
    name: stage.name,
    rootfs,
    env: new Map(),
    args: {},
    workdir: '/',
    user: undefined,
    shell: ['/bin/sh', '-c'],
  };
  if (stage.base.kind === 'scratch') {
    await mkdir(rootfs, { mode: 0o755 });
    return fresh;
  }
  if (stage.base.kind === 'stage') {
    const earlier = done[stage.base.index] as StageState;
    await copyTree(earlier.rootfs, rootfs);
    return { ...earlier, name: stage.name, rootfs, env: new Map(earlier.env), args: {} };
  }
  const base = state.bases.get(stage.base.name) as StoredImage;
  await copyTree(base.rootfs, rootfs);
  for (const entry of base.config.env) {
    const at = entry.indexOf('=');
    if (at > 0) fresh.env.set(entry.slice(0, at), entry.slice(at + 1));
  }
  return { ...fresh, workdir: base.config.workingDir ?? '/', user: base.config.user };
}

function copyTree(from: string, to: string): Promise<void> {
  return cp(from, to, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true, errorOnExist: true });
}

async function runInstruction(
  instruction: Instruction,
  stage: StageState,
  state: BuildState,
  done: readonly StageState[],
  plan: Plan,
  step: string,
): Promise<void> {
  const file = state.request.dockerfile;
  const where = `${file}:${instruction.line} (${step}, ${instruction.keyword})`;
  const vars = { ...stage.args, ...Object.fromEntries(stage.env) };
  switch (instruction.keyword) {
    case 'ARG':
      for (const [name, value] of pairsOf(instruction, file)) {
        stage.args[name] = value === undefined ? (plan.globalArgs[name] ?? '') : expandVars(value, vars);
      }
      return;
    case 'ENV':
      for (const [name, value] of pairsOf(instruction, file)) stage.env.set(name, expandVars(value ?? '', vars));
      return;
    case 'WORKDIR': {
      stage.workdir = posix.resolve(stage.workdir, expandVars(instruction.text.trim(), vars));
      await mkdir(await pathInImage(stage.rootfs, stage.workdir), { recursive: true });
      return;
    }
    case 'USER':
      stage.user = expandVars(instruction.text.trim(), vars);
      return;
    case 'SHELL':
      if (instruction.json === undefined || instruction.json.length === 0) {
        throw new ImageError(`${where}: SHELL takes a JSON array`);
      }
      stage.shell = instruction.json;
      return;
    case 'RUN':
      return run(instruction, stage, state, where);
    case 'COPY':
    case 'ADD':
      return copy(instruction, stage, state, done, vars, where);
    default:
      if (READ_PAST.has(instruction.keyword)) return;
      throw new ImageError(`${where}: unknown instruction`);
  }
}

async function run(instruction: Instruction, stage: StageState, state: BuildState, where: string): Promise<void> {
  const { request } = state;
  // ENV wins over an ARG of the same name, as in Docker.
  const env: Record<string, string> = { PATH: DEFAULT_PATH, ...stage.args, ...Object.fromEntries(stage.env) };
  await mkdir(await pathInImage(stage.rootfs, stage.workdir), { recursive: true });
  const outcome = await runStep({
    bwrap: request.bwrap,
    rootfs: stage.rootfs,
    workdir: stage.workdir,
    env,
    argv: instruction.json ?? [...stage.shell, instruction.text],
    timeoutMs: request.stepTimeoutMs,
  });
  if (outcome.exitCode === 0) return;
  const ended = outcome.timedOut
    ? `was stopped after ${request.stepTimeoutMs / 1000} s`
    : `failed with exit code ${outcome.exitCode}`;
  const output = outcome.output.trimEnd().split('\n').slice(-40).join('\n');
  throw new ImageError(`${where}: RUN ${instruction.text} ${ended}${output === '' ? '' : `:\n${output}`}`);
}

async function copy(
  instruction: Instruction,
  stage: StageState,
  state: BuildState,
  done: readonly StageState[],
  vars: Record<string, string>,
  where: string,
): Promise<void> {
  const words = instruction.json ?? expandVars(instruction.text, vars).trim().split(/\s+/);
  if (words.length < 2) throw new ImageError(`${where}: needs a source and a destination`);
  const destination = words.at(-1) as string;
  const sources = words.slice(0, -1);
  const from = instruction.flags.from === undefined ? undefined : stageOf(instruction.flags.from, done, where);
  const found: string[] = [];
  for (const source of sources) {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source)) {
      throw new ImageError(
        `${where}: ${source}: fetching a URL is not supported (no network is assumed); put the file in the build context`,
      );
    }
    found.push(...(await sourcesOf(source, from, state.context, where)));
  }
  const target = posix.resolve(stage.workdir, destination);
  const intoDir = destination.endsWith('/') || found.length > 1 || sources.length > 1;
  const mode = instruction.flags.chmod === undefined ? undefined : Number.parseInt(instruction.flags.chmod, 8);
  for (const host of found) {
    const stats = await lstat(host);
    if (instruction.keyword === 'ADD' && stats.isFile() && /\.(?:tar|tar\.gz|tgz)$/.test(host)) {
      // ADD unpacks a local tar archive into the destination, as a directory.
      const dir = await pathInImage(stage.rootfs, target);
      await mkdir(dir, { recursive: true });
      const stream: Readable = /gz$/.test(host) ? createReadStream(host).pipe(createGunzip()) : createReadStream(host);
      await applyLayer(dir, stream);
      continue;
    }
    const filter = from === undefined ? (path: string) => inContext(state.context, path) : undefined;
    if (stats.isDirectory()) {
      // A directory's contents are copied, not the directory itself.
      const dir = await pathInImage(stage.rootfs, target);
      await mkdir(dir, { recursive: true });
      for (const name of await readdir(host)) {
        await copyEntry(join(host, name), await pathInImage(stage.rootfs, posix.join(target, name)), filter, mode);
      }
      continue;
    }
    const existing = await stat(await pathInImage(stage.rootfs, target)).catch(() => undefined);
    const to = intoDir || existing?.isDirectory() ? posix.join(target, basename(host)) : target;
    await copyEntry(host, await pathInImage(stage.rootfs, to), filter, mode);
  }
}

async function copyEntry(
  from: string,
  to: string,
  filter: ((path: string) => boolean) | undefined,
  mode: number | undefined,
): Promise<void> {
  if (filter !== undefined && !filter(from)) return;
  await mkdir(dirname(to), { recursive: true });
  await cp(from, to, {
    recursive: true,
    verbatimSymlinks: true,
    preserveTimestamps: true,
    force: true,
    ...(filter && { filter }),
  });
  if (mode === undefined || Number.isNaN(mode)) return;
  const stats = await lstat(to);
  if (!stats.isDirectory()) {
    if (!stats.isSymbolicLink()) await chmod(to, mode);
    return;
  }
  for (const entry of await readdir(to, { recursive: true, withFileTypes: true })) {
    if (!entry.isSymbolicLink()) await chmod(join(entry.parentPath, entry.name), mode);
  }
  await chmod(to, mode);
}

function stageOf(name: string, done: readonly StageState[], where: string): StageState {
  const stage = /^\d+$/.test(name) ? done[Number(name)] : done.find((built) => built.name === name.toLowerCase());
  if (stage === undefined) {
    throw new ImageError(
      `${where}: --from=${name} names no earlier stage (an image of another build is not supported)`,
    );
  }
  return stage;
}

/** The host paths of one COPY source: in the context (wildcards matched against it), or in an earlier stage. */
async function sourcesOf(
  source: string,
  from: StageState | undefined,
  context: BuildContext,
  where: string,
): Promise<string[]> {
  if (from !== undefined) {
    const path = await pathInImage(from.rootfs, posix.resolve('/', source));
    if ((await lstat(path).catch(() => undefined)) === undefined)
      throw new ImageError(`${where}: ${source}: not in that stage`);
    return [path];
  }
  const relativeSource = posix.normalize(`/${source}`).slice(1).replace(/\/+$/, '');
  if (/[*?[]/.test(relativeSource)) {
    const pattern = globRegExp(relativeSource);
    const matched = [...context.entries]
      .filter((entry) => pattern.test(entry))
      .map((entry) => join(context.dir, entry));
    if (matched.length === 0) throw new ImageError(`${where}: ${source}: matches no file of the build context`);
    return matched;
  }
  const path = contextPath(context, source);
  if (!inContext(context, path)) {
    throw new ImageError(
      `${where}: ${source}: not in the build context ${context.dir} (or left out by its .dockerignore)`,
    );
  }
  return [path];
}
