import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyLayer } from './apply-layer.js';
import { unpackImage } from './image-archive.js';

// Layers made by GNU tar from real directories, so the reader is held to a real writer.

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'gz-bench-unpack-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A layer tar of the files under `name` (their paths relative to it), written with GNU tar. */
async function layer(name: string, files: Record<string, string | { link: string }>, members = ['.']) {
  const dir = join(root, 'src', name);
  await mkdir(dir, { recursive: true });
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    if (typeof content === 'string') await writeFile(join(dir, path), content);
    else await symlink(content.link, join(dir, path));
  }
  const file = join(root, `${name}.tar`);
  const only = members.length === 1 && members[0] === '.' ? [] : ['--no-recursion'];
  execFileSync('tar', ['-cf', file, '--format=pax', '-C', dir, ...only, ...members]);
  return file;
}

describe('applyLayer', () => {
  it('applies layers in order: files, links, long paths, whiteouts and opaque directories', async () => {
    const long = `deep/${'d'.repeat(120)}/${'f'.repeat(120)}.txt`;
    const one = await layer('one', {
      'etc/os-release': 'ID=test\n',
      'usr/bin/tool': '#!/bin/sh\n',
      bin: { link: 'usr/bin' },
      'gone.txt': 'x',
      'opaque/old.txt': 'old',
      [long]: 'long',
    });
    const two = await layer('two', { '.wh.gone.txt': '', 'opaque/.wh..wh..opq': '', 'opaque/new.txt': 'new' });
    const rootfs = join(root, 'rootfs');
    await mkdir(rootfs);
    await applyLayer(rootfs, createReadStream(one));
    await applyLayer(rootfs, createReadStream(two));
    expect(await readFile(join(rootfs, 'etc/os-release'), 'utf8')).toBe('ID=test\n');
    expect(await readlink(join(rootfs, 'bin'))).toBe('usr/bin');
    expect(await readFile(join(rootfs, long), 'utf8')).toBe('long');
    expect(existsSync(join(rootfs, 'gone.txt'))).toBe(false);
    expect(existsSync(join(rootfs, 'opaque/old.txt'))).toBe(false);
    expect(await readFile(join(rootfs, 'opaque/new.txt'), 'utf8')).toBe('new');
  });

  it('writes through an absolute link inside the root, never outside it', async () => {
    const outside = join(root, 'outside');
    await mkdir(outside);
    const one = await layer('one', { escape: { link: outside } });
    // The file alone, no directory entry before it (which would replace the link).
    const two = await layer('two', { 'escape/pwned': 'x' }, ['./escape/pwned']);
    const rootfs = join(root, 'rootfs');
    await mkdir(rootfs);
    await applyLayer(rootfs, createReadStream(one));
    await applyLayer(rootfs, createReadStream(two));
    expect(existsSync(join(outside, 'pwned'))).toBe(false);
    expect(await readFile(join(rootfs, outside, 'pwned'), 'utf8')).toBe('x');
  });

  it('refuses an entry that climbs out with ..', async () => {
    await mkdir(join(root, 'src'));
    await writeFile(join(root, 'victim'), 'x');
    const file = join(root, 'climb.tar');
    execFileSync('tar', ['-cf', file, '-P', '-C', join(root, 'src'), '../victim']);
    const rootfs = join(root, 'rootfs');
    await mkdir(rootfs);
    await expect(applyLayer(rootfs, createReadStream(file))).rejects.toThrow("leaves the image's root");
  });
});

describe('unpackImage', () => {
  const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

  it('reads an OCI layout with gzip layers and the image configuration', async () => {
    const base = await readFile(await layer('base', { 'app/main.py': 'print(1)\n' }));
    const top = gzipSync(await readFile(await layer('top', { 'app/extra.txt': 'extra' })));
    const config = Buffer.from(
      JSON.stringify({ config: { Env: ['PATH=/usr/bin'], WorkingDir: '/app', User: '1000' } }),
    );
    const blobs = join(root, 'oci', 'blobs', 'sha256');
    await mkdir(blobs, { recursive: true });
    for (const blob of [base, top, config]) await writeFile(join(blobs, sha(blob)), blob);
    const manifest = Buffer.from(
      JSON.stringify({
        config: { digest: `sha256:${sha(config)}` },
        layers: [{ digest: `sha256:${sha(base)}` }, { digest: `sha256:${sha(top)}` }],
      }),
    );
    await writeFile(join(blobs, sha(manifest)), manifest);
    await writeFile(
      join(root, 'oci', 'index.json'),
      JSON.stringify({ manifests: [{ digest: `sha256:${sha(manifest)}` }] }),
    );
    await writeFile(join(root, 'oci', 'oci-layout'), '{"imageLayoutVersion":"1.0.0"}');
    const unpacked = await unpackImage(join(root, 'oci'), join(root, 'rootfs'), join(root, 'scratch'));
    expect(unpacked).toEqual({
      config: { env: ['PATH=/usr/bin'], workingDir: '/app', user: '1000' },
      layers: 2,
      skipped: [],
    });
    expect(await readFile(join(root, 'rootfs/app/main.py'), 'utf8')).toBe('print(1)\n');
    expect(await readFile(join(root, 'rootfs/app/extra.txt'), 'utf8')).toBe('extra');
  });

  it('reads a docker-archive file, as docker save writes it', async () => {
    const archive = join(root, 'archive');
    await mkdir(join(archive, 'abc'), { recursive: true });
    await writeFile(join(archive, 'abc', 'layer.tar'), await readFile(await layer('l', { 'srv/x': 'x' })));
    await writeFile(join(archive, 'config.json'), JSON.stringify({ config: { Env: [] } }));
    await writeFile(
      join(archive, 'manifest.json'),
      JSON.stringify([{ Config: 'config.json', Layers: ['abc/layer.tar'] }]),
    );
    const file = join(root, 'image.tar');
    execFileSync('tar', ['-cf', file, '-C', archive, '.']);
    const unpacked = await unpackImage(file, join(root, 'rootfs'), join(root, 'scratch'));
    expect(unpacked.layers).toBe(1);
    expect(await readFile(join(root, 'rootfs/srv/x'), 'utf8')).toBe('x');
    expect((await lstat(join(root, 'rootfs/srv'))).isDirectory()).toBe(true);
  });
});
