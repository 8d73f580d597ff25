import { createReadStream } from 'node:fs';
import { lstat, mkdir, open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { type AppliedLayer, applyLayer, LayerError } from './apply-layer.js';

// An image as a file or directory: a docker-archive (`docker save`: manifest.json naming its config and
// layers) or an OCI image layout (oci-layout, index.json, blobs/<algorithm>/<digest>). Its layers are
// applied in order to an empty directory, which becomes the root file system.

/** What of an image's configuration a case runs with. */
export interface ImageConfig {
  env: string[];
  workingDir?: string;
  user?: string;
}

/** What unpacking an image made. */
export interface UnpackedImage {
  config: ImageConfig;
  layers: number;
  /** Entries no unprivileged unpacker can make (device nodes, FIFOs). */
  skipped: string[];
}

/**
 * Unpacks the image at `source` (an archive file, or a directory holding one unpacked) into `rootfs`,
 * which must not exist. An archive file is first unpacked into `scratch` (which must not exist either).
 */
export async function unpackImage(source: string, rootfs: string, scratch: string): Promise<UnpackedImage> {
  let dir = source;
  if (!(await lstat(source)).isDirectory()) {
    await mkdir(scratch, { mode: 0o700 });
    await applyLayer(scratch, createReadStream(source));
    dir = scratch;
  }
  const { layers, config } = await imageParts(dir);
  await mkdir(rootfs, { mode: 0o755 });
  const skipped: string[] = [];
  for (const layer of layers) {
    const applied: AppliedLayer = await applyLayer(rootfs, await layerStream(layer));
    skipped.push(...applied.skipped);
  }
  return { config, layers: layers.length, skipped };
}

/** The layer files of the image in `dir`, lowest first, and its configuration. */
async function imageParts(dir: string): Promise<{ layers: string[]; config: ImageConfig }> {
  const manifest = await readJson(join(dir, 'manifest.json')).catch(() => undefined);
  if (Array.isArray(manifest)) {
    const [first] = manifest as { Config?: string; Layers?: string[] }[];
    if (first?.Config === undefined || !Array.isArray(first.Layers)) {
      throw new LayerError('manifest.json names no Config and Layers: not a docker-archive');
    }
    return {
      layers: first.Layers.map((layer) => inside(dir, layer)),
      config: configOf(await readJson(inside(dir, first.Config))),
    };
  }
  const index = (await readJson(join(dir, 'index.json')).catch(() => undefined)) as
    | { manifests?: { digest?: string }[] }
    | undefined;
  const digest = index?.manifests?.[0]?.digest;
  if (digest === undefined) throw new LayerError('neither manifest.json (docker-archive) nor index.json (OCI layout)');
  let image = (await readJson(blobPath(dir, digest))) as {
    manifests?: { digest?: string }[];
    layers?: { digest?: string }[];
    config?: { digest?: string };
  };
  // An index of platforms: the first manifest of it.
  if (image.manifests?.[0]?.digest !== undefined)
    image = (await readJson(blobPath(dir, image.manifests[0].digest))) as typeof image;
  if (image.config?.digest === undefined || !Array.isArray(image.layers)) {
    throw new LayerError(`the manifest ${digest} names no config and layers`);
  }
  return {
    layers: image.layers.map((layer) => blobPath(dir, String(layer.digest))),
    config: configOf(await readJson(blobPath(dir, image.config.digest))),
  };
}

function configOf(data: unknown): ImageConfig {
  const config = (data as { config?: { Env?: unknown; WorkingDir?: unknown; User?: unknown } } | null)?.config ?? {};
  return {
    env: Array.isArray(config.Env) ? config.Env.filter((each): each is string => typeof each === 'string') : [],
    ...(typeof config.WorkingDir === 'string' && config.WorkingDir !== '' && { workingDir: config.WorkingDir }),
    ...(typeof config.User === 'string' && config.User !== '' && { user: config.User }),
  };
}

/** A path the archive names, which must stay inside it. */
function inside(dir: string, path: string): string {
  if (path.startsWith('/') || path.split('/').includes('..'))
    throw new LayerError(`the archive names ${path} outside itself`);
  return join(dir, path);
}

function blobPath(dir: string, digest: string): string {
  const match = /^([a-z0-9]+):([a-f0-9]{32,128})$/.exec(digest);
  if (match === null) throw new LayerError(`not a digest: ${digest}`);
  return join(dir, 'blobs', match[1] as string, match[2] as string);
}

async function readJson(path: string): Promise<unknown> {
  return JSON.parse(await readFile(path, 'utf8'));
}

/** A layer's tar stream, gunzipped when it is gzip (layers may be either). */
async function layerStream(path: string): Promise<Readable> {
  const handle = await open(path, 'r');
  const magic = Buffer.alloc(4);
  await handle.read(magic, 0, 4, 0);
  await handle.close();
  const stream = createReadStream(path);
  if (magic[0] === 0x1f && magic[1] === 0x8b) return stream.pipe(createGunzip());
  if (magic.readUInt32LE(0) === 0xfd2fb528) throw new LayerError(`${path}: zstd layers are not supported yet`);
  return stream;
}
