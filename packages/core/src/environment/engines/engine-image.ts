import { join } from 'node:path';
import { unpackImage } from '../../images/index.js';
import { ImageError, type StoredImage, storeRootfs } from '../image-store.js';
import { type ContainerEngine, runEngine } from './engines.js';

// An image of an engine's own store, unpacked into gz-bench's store once per image id: `save` writes
// it as a docker-archive, which the pure-Node unpacker reads as it reads any other. A second run
// asks the engine for the id alone.

/** How long saving an image may take. */
const SAVE_TIMEOUT_MS = 30 * 60_000;

/** The engine's id of `ref` (`sha256:…`), or undefined when its store has no such image. */
export async function engineImageId(engine: ContainerEngine, ref: string): Promise<string | undefined> {
  const { exitCode, output } = await runEngine(engine, ['image', 'inspect', '--format', '{{.Id}}', ref], {
    timeoutMs: 60_000,
  });
  if (exitCode !== 0) return undefined;
  const id = output.trim().split('\n')[0] ?? '';
  return id.startsWith('sha256:') ? id : `sha256:${id}`;
}

/** The image `ref` of `engine`'s store, unpacked in gz-bench's store at `cacheDir`. */
export async function engineImage(engine: ContainerEngine, ref: string, cacheDir: string): Promise<StoredImage> {
  const id = await engineImageId(engine, ref);
  if (id === undefined) {
    throw new ImageError(
      `the image ${ref} is not in ${engine}'s store; ${engine} pull ${ref} (or ${engine} load -i ARCHIVE) first: no registry is reached`,
    );
  }
  return storeRootfs(cacheDir, `${engine}-${id}`, async (staging) => {
    const archive = join(staging, 'image.tar');
    const format = engine === 'podman' ? ['--format', 'docker-archive'] : [];
    const saved = await runEngine(engine, ['save', ...format, '-o', archive, ref], { timeoutMs: SAVE_TIMEOUT_MS });
    if (saved.exitCode !== 0) {
      throw new ImageError(`${engine} save ${ref} failed: ${saved.output.trim().split('\n').at(-1) ?? ''}`);
    }
    const { config } = await unpackImage(archive, join(staging, 'rootfs'), join(staging, 'archive'));
    return config;
  });
}
