import { createHash } from 'node:crypto';
import { cp, lstat, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOwnedDir } from '../../workspace/owned-dirs.js';
import { removeTree } from '../../workspace/remove-tree.js';
import {
  BaseImageMissing,
  type BuildRequest,
  type BuiltImage,
  baseArchive,
  baseImageNames,
  readBuildInputs,
} from '../dockerfile/build-image.js';
import { archiveDigest, ImageError } from '../image-store.js';
import { engineImage, engineImageId } from './engine-image.js';
import { type ContainerEngine, runEngine } from './engines.js';

// A Dockerfile built by Docker or Podman, with the engine's own builder, never reaching a registry
// (`--pull=never`): each FROM is an image of `baseImages` (loaded into the engine under a tag of
// gz-bench's, the FROM line pointed at it, the user's own tags untouched) or of the engine's store.
// The image is tagged by a digest of the Dockerfile, its context and its bases, so a second run
// finds it and builds nothing; then it is unpacked into gz-bench's store as any image is.

/** Builds (or finds built) the image of `request.dockerfile` with `engine`. */
export async function engineBuild(engine: ContainerEngine, request: BuildRequest): Promise<BuiltImage> {
  const file = request.dockerfile;
  const { text, context } = await readBuildInputs(request);
  const substitutions: { from: string; to: string }[] = [];
  const rewritten = new Map<string, string>();
  const baseIds: [string, string][] = [];
  for (const name of baseImageNames(text)) {
    const archive = baseArchive(name, request.baseImages);
    if (archive !== undefined) {
      // The archive's own digest stands for the base in the build's digest.
      const { tag, digest } = await loadedBase(engine, archive);
      rewritten.set(name, tag);
      baseIds.push([name, digest]);
      substitutions.push({ from: name, to: archive });
      continue;
    }
    const id = await engineImageId(engine, name);
    if (id === undefined) {
      throw new BaseImageMissing(
        `${file}: the base image ${name} is not here; name an archive of it in "baseImages" ({ "${name}": "images/base.tar" }) or ${engine} pull it: no registry is reached`,
      );
    }
    baseIds.push([name, id]);
  }
  const digest = createHash('sha256')
    .update(JSON.stringify({ text, context: context.digest, bases: baseIds, ignore: request.ignore ?? [] }))
    .digest('hex');
  const tag = `gz-bench-build:${digest.slice(0, 32)}`;
  if ((await engineImageId(engine, tag)) === undefined) {
    await build(engine, request, text, rewritten, tag, context.entries);
  }
  return { image: await engineImage(engine, tag, request.cacheDir), substitutions };
}

/** The engine's tag of a base image archive, loaded once per archive digest, and that digest. */
async function loadedBase(engine: ContainerEngine, archive: string): Promise<{ tag: string; digest: string }> {
  const digest = await archiveDigest(archive);
  const tag = `gz-bench-base:${digest.replace(/^sha256:/, '').slice(0, 32)}`;
  if ((await engineImageId(engine, tag)) !== undefined) return { tag, digest };
  const loaded = await runEngine(engine, ['load', '-i', archive], { timeoutMs: 30 * 60_000 });
  const name = /Loaded image(?:\(s\))?(?: ID)?:\s*(\S+)/.exec(loaded.output)?.[1]?.split(',')[0];
  if (loaded.exitCode !== 0 || name === undefined) {
    throw new ImageError(`${engine} load -i ${archive} failed: ${loaded.output.trim().split('\n').at(-1) ?? ''}`);
  }
  const tagged = await runEngine(engine, ['tag', name, tag], { timeoutMs: 60_000 });
  if (tagged.exitCode !== 0) throw new ImageError(`${engine} tag ${name} ${tag} failed: ${tagged.output.trim()}`);
  return { tag, digest };
}

async function build(
  engine: ContainerEngine,
  request: BuildRequest,
  text: string,
  rewritten: ReadonlyMap<string, string>,
  tag: string,
  entries: ReadonlySet<string>,
): Promise<void> {
  // Named for this process, so the janitor removes it should the run be killed mid-build.
  const scratch = await createOwnedDir(tmpdir(), 'build');
  try {
    const dockerfile = join(scratch, 'Dockerfile');
    await writeFile(dockerfile, withBases(text, rewritten));
    // What the context leaves out (`ignore`) must not reach the engine's builder: a copy without it.
    let context = request.context;
    if ((request.ignore ?? []).length > 0) {
      context = join(scratch, 'context');
      await mkdir(context);
      // Sorted, so a directory comes before what it holds.
      for (const entry of [...entries].sort()) {
        const from = join(request.context, entry);
        if ((await lstat(from)).isDirectory()) await mkdir(join(context, entry), { recursive: true });
        else await cp(from, join(context, entry), { verbatimSymlinks: true, preserveTimestamps: true });
      }
    }
    const tail: string[] = [];
    const result = await runEngine(engine, ['build', '--pull=never', '-f', dockerfile, '-t', tag, context], {
      timeoutMs: request.stepTimeoutMs,
      onLine: (line) => {
        tail.push(line);
        if (tail.length > 40) tail.shift();
        if (/^(STEP \d+\/\d+|#\d+ \[|Step \d+\/\d+)/.test(line)) request.onProgress?.(line);
      },
    });
    if (result.exitCode !== 0) {
      const output = (tail.length > 0 ? tail : result.output.trimEnd().split('\n').slice(-40)).join('\n');
      throw new ImageError(
        `${request.dockerfile}: ${engine} build failed with exit code ${result.exitCode}:\n${output}`,
      );
    }
  } finally {
    await removeTree(scratch).catch(() => undefined);
  }
}

/** The Dockerfile with each FROM of a substituted base pointed at the engine's tag of it. */
function withBases(text: string, rewritten: ReadonlyMap<string, string>): string {
  return text.replace(/^(\s*FROM\s+(?:--\S+\s+)*)(\S+)/gim, (whole, head: string, image: string) => {
    const tag = rewritten.get(image);
    return tag === undefined ? whole : `${head}${tag}`;
  });
}
