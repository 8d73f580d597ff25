import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { type ImageConfig, LayerError, unpackImage } from '../images/index.js';
import { TarError } from '../images/tar-entries.js';
import { ownStartTime } from '../workspace/owned-dirs.js';
import { removeTree } from '../workspace/remove-tree.js';
import { ownerIsRunning } from '../workspace/stale-areas.js';

// Images unpacked for the bwrap engine are kept between runs, one root file system per digest of the
// archive's bytes: a second run of the same suite unpacks nothing. Workers of one run, and runs at
// once, may unpack the same image together: each unpacks into a directory of its own and renames it
// into place; the one that loses the race removes its copy and takes the winner's.

/** The variable that names where unpacked images are kept. */
export const IMAGE_CACHE_ENV = 'GZ_BENCH_CACHE_DIR';

/** An image unpacked and ready to be the root of trials. */
export interface StoredImage {
  /** `sha256:<hex>` of the archive (of its index.json, for an OCI layout directory). */
  digest: string;
  rootfs: string;
  config: ImageConfig;
  /** Whether this call unpacked it (false: it was in the store already). */
  unpacked: boolean;
}

/** Raised for an archive that cannot be unpacked: the message names the archive and why. */
export class ImageError extends Error {
  override name = 'ImageError';
}

/** Where unpacked images are kept: `GZ_BENCH_CACHE_DIR`, else `$XDG_CACHE_HOME/gz-bench`, else `~/.cache/gz-bench`. */
export function imageCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const own = env[IMAGE_CACHE_ENV];
  if (own !== undefined && own !== '') return join(own, 'images');
  const xdg = env.XDG_CACHE_HOME;
  return join(xdg?.startsWith('/') ? xdg : join(homedir(), '.cache'), 'gz-bench', 'images');
}

const stored = new Map<string, Promise<StoredImage>>();

/** The image at `archive`, unpacked into the store at `cacheDir` unless it is there; once per process. */
export function storedImage(archive: string, cacheDir: string = imageCacheDir()): Promise<StoredImage> {
  const key = `${cacheDir}\0${archive}`;
  let image = stored.get(key);
  if (image === undefined) {
    image = storeImage(archive, cacheDir);
    // A failure is not kept: the archive may be fixed before the next case asks.
    image.catch(() => stored.delete(key));
    stored.set(key, image);
  }
  return image;
}

async function storeImage(archive: string, cacheDir: string): Promise<StoredImage> {
  const digest = await archiveDigest(archive);
  return storeRootfs(cacheDir, digest, async (staging) => {
    try {
      const { config } = await unpackImage(archive, join(staging, 'rootfs'), join(staging, 'archive'));
      await removeTree(join(staging, 'archive')).catch(() => undefined);
      return config;
    } catch (error) {
      if (error instanceof LayerError || error instanceof TarError || error instanceof SyntaxError) {
        throw new ImageError(`cannot unpack the image ${archive}: ${error.message}`);
      }
      throw error;
    }
  });
}

/**
 * The root file system kept in the store at `cacheDir` under `digest`, made by `make` unless it is
 * there already. `make` writes `<staging>/rootfs` and returns the image's configuration; `staging`
 * is a directory of its own, renamed into place only when whole, and removed on failure.
 */
export async function storeRootfs(
  cacheDir: string,
  digest: string,
  make: (staging: string) => Promise<ImageConfig>,
): Promise<StoredImage> {
  const dir = join(cacheDir, digest.replace(':', '-'));
  const ready = await readStored(dir);
  if (ready !== undefined) return { digest, rootfs: join(dir, 'rootfs'), config: ready, unpacked: false };
  await mkdir(cacheDir, { recursive: true, mode: 0o700 });
  await removeDeadStagings(cacheDir);
  const staging = `${dir}${STAGING}${process.pid}-${await ownStartTime()}-${randomBytes(4).toString('hex')}`;
  await mkdir(staging, { mode: 0o700 });
  try {
    const config = await make(staging);
    await writeFile(join(staging, 'config.json'), JSON.stringify(config));
    try {
      await rename(staging, dir);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
      // Another process stored the same digest meanwhile: its copy serves.
      const theirs = await readStored(dir);
      if (theirs === undefined) throw error;
      return { digest, rootfs: join(dir, 'rootfs'), config: theirs, unpacked: false };
    }
    return { digest, rootfs: join(dir, 'rootfs'), config, unpacked: true };
  } finally {
    await removeTree(staging).catch(() => undefined);
  }
}

/** What a staging directory's name holds after the digest's: `.unpacking-<pid>-<start time>-<random>`. */
const STAGING = '.unpacking-';
const STAGING_NAME = /\.unpacking-([1-9][0-9]{0,9})-([0-9]{1,20})-[0-9a-f]{8}$/;

/**
 * Removes the staging directories of processes that are gone: a run killed while it unpacked or
 * built an image leaves one, which no later run would otherwise ever remove.
 */
async function removeDeadStagings(cacheDir: string): Promise<void> {
  for (const name of await readdir(cacheDir).catch(() => [] as string[])) {
    const owner = STAGING_NAME.exec(name);
    if (owner === null) continue;
    if (await ownerIsRunning({ pid: Number(owner[1]), startTime: Number(owner[2]) })) continue;
    await removeTree(join(cacheDir, name)).catch(() => undefined);
  }
}

/** The configuration of the image stored at `dir`, or undefined when it is not (wholly) there. */
async function readStored(dir: string): Promise<ImageConfig | undefined> {
  try {
    return JSON.parse(await readFile(join(dir, 'config.json'), 'utf8')) as ImageConfig;
  } catch {
    return undefined;
  }
}

/** The digest that names an archive in the store: of its bytes, or of an OCI layout's index.json. */
export async function archiveDigest(archive: string): Promise<string> {
  let stats: Awaited<ReturnType<typeof stat>>;
  try {
    stats = await stat(archive);
  } catch (error) {
    throw new ImageError(`the image archive ${archive} is not there (${(error as NodeJS.ErrnoException).code})`);
  }
  const file = stats.isDirectory() ? join(archive, 'index.json') : archive;
  const hash = createHash('sha256');
  try {
    for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  } catch (error) {
    throw new ImageError(`cannot read the image ${file}: ${(error as NodeJS.ErrnoException).code ?? error}`);
  }
  return `sha256:${hash.digest('hex')}`;
}
