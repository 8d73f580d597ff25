import type { CapturedOutput } from './types.js';

/** Default bytes kept at the head and, again, at the tail of a command's output. */
export const DEFAULT_OUTPUT_LIMIT_BYTES = 1024 * 1024;

/** The line that stands where output was dropped between head and tail. */
export function droppedMarker(droppedBytes: number): string {
  return `\n[gz-bench: ${droppedBytes} bytes of output dropped]\n`;
}

// The head starts this small and doubles as output arrives, so that the many commands that print
// little (setup steps, checks, trivial agents) cost kilobytes, not the whole limit.
const INITIAL_HEAD_BYTES = 16 * 1024;

/**
 * Collects a byte stream in O(limit) memory: the first `limitBytes` as a head, the last `limitBytes`
 * in a ring, and a count of everything. An agent writing gigabytes costs two buffers, not gigabytes;
 * one writing little costs what it wrote.
 */
export class OutputBuffer {
  readonly #limit: number;
  #head: Buffer;
  #headLength = 0;
  // Allocated only once the head is full, so short outputs cost one buffer.
  #tail: Buffer | undefined;
  // Index of the oldest byte in the ring, and how many bytes of it are in use.
  #tailStart = 0;
  #tailLength = 0;
  #totalBytes = 0;

  constructor(limitBytes: number = DEFAULT_OUTPUT_LIMIT_BYTES) {
    if (!Number.isSafeInteger(limitBytes) || limitBytes < 1) {
      throw new RangeError(`outputLimitBytes must be a positive integer, got ${limitBytes}`);
    }
    this.#limit = limitBytes;
    this.#head = Buffer.allocUnsafe(Math.min(limitBytes, INITIAL_HEAD_BYTES));
  }

  /** Every byte appended so far. */
  get totalBytes(): number {
    return this.#totalBytes;
  }

  /** Bytes between head and tail that were not kept. */
  get droppedBytes(): number {
    return this.#totalBytes - this.#headLength - this.#tailLength;
  }

  /** Appends one chunk; the chunk is copied, never retained. */
  append(chunk: Uint8Array): void {
    this.#totalBytes += chunk.length;
    const intoHead = Math.min(this.#limit - this.#headLength, chunk.length);
    if (intoHead > 0) {
      this.#growHead(this.#headLength + intoHead);
      this.#head.set(chunk.subarray(0, intoHead), this.#headLength);
      this.#headLength += intoHead;
    }
    if (intoHead < chunk.length) this.#appendToTail(chunk.subarray(intoHead));
  }

  /** Decodes what was kept, with a marker line where bytes were dropped. */
  snapshot(): CapturedOutput {
    const head = this.#head.subarray(0, this.#headLength);
    const tail = this.#orderedTail();
    const droppedBytes = this.droppedBytes;
    // Decode head and tail apart only when there is a gap: a character cut at either edge then becomes
    // U+FFFD instead of being glued to unrelated bytes from the other side of the gap.
    const text =
      droppedBytes === 0
        ? decodeUtf8(Buffer.concat([head, tail]))
        : decodeUtf8(head) + droppedMarker(droppedBytes) + decodeUtf8(tail);
    return { text, totalBytes: this.#totalBytes, droppedBytes };
  }

  /** Makes room for `needed` bytes of head, doubling (up to the limit) to keep copies few. */
  #growHead(needed: number): void {
    if (needed <= this.#head.length) return;
    let size = this.#head.length;
    while (size < needed) size *= 2;
    const grown = Buffer.allocUnsafe(Math.min(size, this.#limit));
    this.#head.copy(grown, 0, 0, this.#headLength);
    this.#head = grown;
  }

  #appendToTail(bytes: Uint8Array): void {
    const ring = this.#ringBuffer();
    if (bytes.length >= this.#limit) {
      // The chunk alone fills the ring: only its last `limit` bytes survive.
      ring.set(bytes.subarray(bytes.length - this.#limit));
      this.#tailStart = 0;
      this.#tailLength = this.#limit;
      return;
    }
    // Write at the ring's end position, wrapping once at most (bytes.length < limit).
    const writeAt = (this.#tailStart + this.#tailLength) % this.#limit;
    const firstPart = Math.min(bytes.length, this.#limit - writeAt);
    ring.set(bytes.subarray(0, firstPart), writeAt);
    ring.set(bytes.subarray(firstPart), 0);
    const overflow = this.#tailLength + bytes.length - this.#limit;
    if (overflow > 0) {
      // The oldest bytes were overwritten: the ring is full and starts just after the newest byte.
      this.#tailStart = (this.#tailStart + overflow) % this.#limit;
      this.#tailLength = this.#limit;
    } else {
      this.#tailLength += bytes.length;
    }
  }

  #ringBuffer(): Buffer {
    // Never read before written: only the `#tailLength` bytes from `#tailStart` count.
    this.#tail ??= Buffer.allocUnsafe(this.#limit);
    return this.#tail;
  }

  #orderedTail(): Buffer {
    if (this.#tail === undefined || this.#tailLength === 0) return Buffer.alloc(0);
    const end = this.#tailStart + this.#tailLength;
    if (end <= this.#limit) return this.#tail.subarray(this.#tailStart, end);
    return Buffer.concat([this.#tail.subarray(this.#tailStart), this.#tail.subarray(0, end - this.#limit)]);
  }
}

// `fatal: false` (the default) is spelled out because "never throws on agent output" is the point;
// `ignoreBOM` keeps a leading byte-order mark as output instead of silently eating it.
const utf8 = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

function decodeUtf8(bytes: Uint8Array): string {
  return utf8.decode(bytes);
}

/** The last `maxChars` characters of `text`, for reports; never splits a surrogate pair. */
export function outputTail(text: string, maxChars = 4000): string {
  if (text.length <= maxChars) return text;
  let start = text.length - maxChars;
  // A low surrogate at the cut would be half a character: start one later.
  const first = text.charCodeAt(start);
  if (first >= 0xdc00 && first <= 0xdfff) start += 1;
  return detachedCopy(text.slice(start));
}

/**
 * A copy of `text` that holds no reference to a larger string. V8 makes a slice of a long string a
 * view into it, so a 4000-character tail kept in a result would keep the whole 2 MiB output alive for
 * as long as the result lives (a whole suite file, in a Vitest worker).
 */
export function detachedCopy(text: string): string {
  // UTF-16 both ways: exact for any string, lone surrogates included.
  return Buffer.from(text, 'utf16le').toString('utf16le');
}
