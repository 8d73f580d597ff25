import type { Readable } from 'node:stream';

// A tar reader of its own: image layers are ustar, with pax headers (long paths, long link targets)
// and GNU long names in older images. Entries are read one at a time from a stream, so a layer of
// gigabytes never sits in memory: each entry's data is handed on as it arrives.

/** One entry of a tar archive. */
export interface TarEntry {
  /** The path as written in the archive, without a leading `./` or `/`. */
  path: string;
  type: 'file' | 'directory' | 'symlink' | 'hardlink' | 'other';
  mode: number;
  size: number;
  /** A symlink's target, or the archive path a hardlink points at. */
  linkTarget: string;
}

const BLOCK = 512;

/** Raised for an archive that is not a tar archive, or ends in the middle of an entry. */
export class TarError extends Error {
  override name = 'TarError';
}

/**
 * Calls `onEntry` for each entry of the tar stream, in order, with a reader of its data (for files),
 * and waits for each before the next: an unpacker writes one file at a time.
 */
export async function readTar(
  stream: Readable,
  onEntry: (entry: TarEntry, data: AsyncIterable<Buffer>) => Promise<void>,
): Promise<void> {
  const blocks = new BlockReader(stream);
  let pax: Record<string, string> = {};
  let longName: string | undefined;
  let longLink: string | undefined;
  for (;;) {
    const header = await blocks.read(BLOCK);
    if (header === undefined || header.every((byte) => byte === 0)) return;
    if (!checksumMatches(header)) throw new TarError('not a tar archive: a header checksum does not match');
    const size = readOctal(header, 124, 12);
    const flag = String.fromCharCode(header[156] ?? 0);
    if (flag === 'x' || flag === 'L' || flag === 'K' || flag === 'g') {
      const text = (await blocks.readPadded(size)).toString('utf8');
      if (flag === 'x') pax = parsePax(text);
      else if (flag === 'L') longName = text.replace(/\0+$/, '');
      else if (flag === 'K') longLink = text.replace(/\0+$/, '');
      continue;
    }
    const name = pax.path ?? longName ?? ustarName(header);
    const entry: TarEntry = {
      path: name.replace(/^(\.\/|\/)+/, '').replace(/\/+$/, ''),
      type: entryType(flag),
      mode: readOctal(header, 100, 8) & 0o7777,
      size: pax.size === undefined ? size : Number(pax.size),
      linkTarget: pax.linkpath ?? longLink ?? cString(header, 157, 100),
    };
    pax = {};
    longName = undefined;
    longLink = undefined;
    const data = blocks.entryData(entry.size);
    await onEntry(entry, data);
    // Whatever the handler did not read is skipped.
    for await (const _chunk of data) {
      // drained
    }
  }
}

function entryType(flag: string): TarEntry['type'] {
  if (flag === '0' || flag === '\0' || flag === '7') return 'file';
  if (flag === '5') return 'directory';
  if (flag === '2') return 'symlink';
  if (flag === '1') return 'hardlink';
  return 'other';
}

function ustarName(header: Buffer): string {
  const name = cString(header, 0, 100);
  const magic = header.subarray(257, 262).toString('latin1');
  const prefix = magic === 'ustar' ? cString(header, 345, 155) : '';
  return prefix === '' ? name : `${prefix}/${name}`;
}

function cString(header: Buffer, offset: number, length: number): string {
  const field = header.subarray(offset, offset + length);
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? length : end).toString('utf8');
}

function readOctal(header: Buffer, offset: number, length: number): number {
  const field = header.subarray(offset, offset + length);
  // GNU base-256 for sizes over 8 GiB: the high bit of the first byte is set.
  if (((field[0] ?? 0) & 0x80) !== 0) {
    let value = 0;
    for (const [index, byte] of field.entries()) value = value * 256 + (index === 0 ? byte & 0x7f : byte);
    return value;
  }
  const text = field
    .toString('latin1')
    .replace(/[\0 ]+$/, '')
    .trim();
  return text === '' ? 0 : Number.parseInt(text, 8);
}

function checksumMatches(header: Buffer): boolean {
  let sum = 0;
  for (let index = 0; index < BLOCK; index += 1) {
    sum += index >= 148 && index < 156 ? 0x20 : (header[index] as number);
  }
  return readOctal(header, 148, 8) === sum;
}

/** pax records: `<length> <key>=<value>\n`, lengths counted in bytes. */
function parsePax(text: string): Record<string, string> {
  const records: Record<string, string> = {};
  const bytes = Buffer.from(text, 'utf8');
  let offset = 0;
  while (offset < bytes.length) {
    const space = bytes.indexOf(0x20, offset);
    if (space === -1) break;
    const length = Number(bytes.subarray(offset, space).toString('latin1'));
    if (!Number.isSafeInteger(length) || length <= 0) break;
    const record = bytes.subarray(space + 1, offset + length - 1).toString('utf8');
    const equals = record.indexOf('=');
    if (equals > 0) records[record.slice(0, equals)] = record.slice(equals + 1);
    offset += length;
  }
  return records;
}

/** Reads exact byte counts from a stream of chunks of any size. */
class BlockReader {
  readonly #chunks: AsyncIterator<Buffer>;
  #pending: Buffer = Buffer.alloc(0);
  #ended = false;

  constructor(stream: Readable) {
    this.#chunks = (stream as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  }

  /** Exactly `length` bytes, or undefined at the end of the stream before any. */
  async read(length: number): Promise<Buffer | undefined> {
    while (this.#pending.length < length && !this.#ended) await this.#fill();
    if (this.#pending.length === 0) return undefined;
    if (this.#pending.length < length) throw new TarError('the archive ends in the middle of an entry');
    const out = this.#pending.subarray(0, length);
    this.#pending = this.#pending.subarray(length);
    return out;
  }

  /** `length` bytes of data and the padding to the next block, the data alone returned. */
  async readPadded(length: number): Promise<Buffer> {
    const padded = Math.ceil(length / BLOCK) * BLOCK;
    if (padded === 0) return Buffer.alloc(0);
    const block = await this.read(padded);
    if (block === undefined) throw new TarError('the archive ends in the middle of an entry');
    return Buffer.from(block.subarray(0, length));
  }

  /** An entry's data of `length` bytes as chunks, the block padding after it consumed. */
  entryData(length: number): AsyncIterable<Buffer> {
    let left = length;
    let padding = (BLOCK - (length % BLOCK)) % BLOCK;
    const reader = this;
    return {
      async *[Symbol.asyncIterator]() {
        while (left > 0) {
          if (reader.#pending.length === 0) {
            if (reader.#ended) throw new TarError('the archive ends in the middle of an entry');
            await reader.#fill();
            continue;
          }
          const take = Math.min(left, reader.#pending.length);
          const chunk = reader.#pending.subarray(0, take);
          reader.#pending = reader.#pending.subarray(take);
          left -= take;
          yield chunk;
        }
        if (padding > 0) {
          await reader.read(padding);
          padding = 0;
        }
      },
    };
  }

  async #fill(): Promise<void> {
    const next = await this.#chunks.next();
    if (next.done) {
      this.#ended = true;
      return;
    }
    const chunk = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
    this.#pending = this.#pending.length === 0 ? chunk : Buffer.concat([this.#pending, chunk]);
  }
}
