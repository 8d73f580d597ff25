import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, copyFile, mkdir, readFile, realpath, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

// Test images made from the host's own files, since no registry is reachable: a few programs and
// the libraries `ldd` says they load (node's among them, as an image must hold for the host's node to
// run), plus files of the test's own, packed by GNU tar into a docker-archive.

/** What a test image holds besides its programs. */
export interface HostImageSpec {
  /** Host programs copied in at their paths, with their libraries. */
  programs?: readonly string[];
  /** Files of the image, by absolute path: text, or a link. */
  files?: Record<string, string | { link: string } | { script: string }>;
  env?: string[];
  workingDir?: string;
  user?: string;
  /** Leave node's libraries out (an image node cannot run in). */
  withoutNodeLibraries?: boolean;
  /** The name the archive gives the image when an engine loads it. @default 'gz-bench-test:latest' */
  tag?: string;
  /** Host programs whose libraries the image holds, the programs themselves left out (an agent's native CLI). */
  librariesOf?: readonly string[];
}

const BASE_PROGRAMS = ['/bin/sh', '/bin/sleep', '/bin/cat', '/bin/ls', '/bin/mkdir', '/bin/rm', '/usr/bin/env'];

/** Writes a docker-archive of the image to `file`, built in `scratch` (which must not exist). */
export async function buildHostImage(spec: HostImageSpec, scratch: string, file: string): Promise<string> {
  const rootfs = join(scratch, 'rootfs');
  await mkdir(join(rootfs, 'tmp'), { recursive: true });
  const programs = [...BASE_PROGRAMS, ...(spec.programs ?? [])];
  const libraries = new Set<string>();
  const loaders = [...programs, ...(spec.librariesOf ?? []), ...(spec.withoutNodeLibraries ? [] : [process.execPath])];
  for (const program of loaders) {
    for (const library of lddClosure(program)) libraries.add(library);
  }
  for (const path of [...programs, ...libraries]) await copyIn(path, rootfs);
  for (const [path, content] of Object.entries(spec.files ?? {})) {
    const target = join(rootfs, path);
    await mkdir(dirname(target), { recursive: true });
    if (typeof content === 'string') await writeFile(target, content);
    else if ('link' in content) await symlink(content.link, target);
    else {
      await writeFile(target, content.script);
      await chmod(target, 0o755);
    }
  }
  return packRootfs(rootfs, scratch, file, spec);
}

/** What an image's config says, besides its layer. */
export type ImageMeta = Pick<HostImageSpec, 'env' | 'workingDir' | 'user' | 'tag'>;

/** Packs the directory `rootfs` as the one layer of a docker-archive at `file`, with `scratch` for its parts. */
export async function packRootfs(rootfs: string, scratch: string, file: string, spec: ImageMeta): Promise<string> {
  await mkdir(scratch, { recursive: true });
  const layer = join(scratch, 'layer.tar');
  execFileSync('tar', ['-cf', layer, '--format=pax', '--numeric-owner', '-C', rootfs, '.']);
  const archive = join(scratch, 'archive');
  await mkdir(archive);
  await copyFile(layer, join(archive, 'layer.tar'));
  // A docker-archive that engines load as well (`podman load`): its config names the layer's digest.
  const diffId = `sha256:${createHash('sha256')
    .update(await readFile(layer))
    .digest('hex')}`;
  const config = {
    architecture: 'amd64',
    os: 'linux',
    rootfs: { type: 'layers', diff_ids: [diffId] },
    history: [{ created_by: 'gz-bench test image from host files' }],
    config: {
      Env: spec.env ?? ['PATH=/usr/local/bin:/usr/bin:/bin'],
      ...(spec.workingDir && { WorkingDir: spec.workingDir }),
      ...(spec.user && { User: spec.user }),
    },
  };
  await writeFile(join(archive, 'config.json'), JSON.stringify(config));
  await writeFile(
    join(archive, 'manifest.json'),
    JSON.stringify([{ Config: 'config.json', RepoTags: [spec.tag ?? 'gz-bench-test:latest'], Layers: ['layer.tar'] }]),
  );
  execFileSync('tar', ['-cf', file, '-C', archive, 'manifest.json', 'config.json', 'layer.tar']);
  return file;
}

/** The libraries `ldd` lists for a program, by the paths it loads them from. */
function lddClosure(program: string): string[] {
  const out = execFileSync('ldd', [program], { encoding: 'utf8' });
  return [...out.matchAll(/(\/[^\s)]+)/g)].map((match) => match[1] as string);
}

/** Copies a host file to the same path in `rootfs`, following links (the copy is the file itself). */
async function copyIn(path: string, rootfs: string): Promise<void> {
  const target = join(rootfs, path);
  await mkdir(dirname(target), { recursive: true });
  await copyFile(await realpath(path), target);
  await chmod(target, 0o755);
}
