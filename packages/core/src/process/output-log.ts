import type { Readable, Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { LogOutcome } from './types.js';

// How long ending a log may take once the command is done: its last buffered bytes reach the disk in
// milliseconds, unless the disk hangs (a dead network mount), which must not hang the case.
const FINISH_TIMEOUT_MS = 5000;

/**
 * Writes a command's whole output, as it arrives, to a log stream, with backpressure: while the log
 * has more buffered than its high-water mark, the command's pipes are paused, so the command blocks
 * on its writes and a flood never queues in the harness. At most `maxBytes` go to the log. A failing
 * log (a full disk) is given up, never the command: its error is reported and the pipes flow again.
 */
export class OutputLogWriter {
  readonly #stream: Writable;
  readonly #maxBytes: number;
  #sources: readonly Readable[] = [];
  #written = 0;
  #paused = false;
  #error: string | undefined;

  constructor(stream: Writable, maxBytes: number) {
    this.#stream = stream;
    this.#maxBytes = maxBytes;
    stream.on('drain', () => this.#resume());
    stream.on('error', (error) => this.#fail(error));
  }

  /** The pipes to pause while the log catches up. */
  attach(sources: readonly Readable[]): void {
    this.#sources = sources;
    if (this.#paused) for (const source of sources) source.pause();
  }

  /** Writes what fits of `chunk` below `maxBytes`; the chunk must not be changed afterwards. */
  write(chunk: Buffer): void {
    if (this.#error !== undefined) return;
    const room = this.#maxBytes - this.#written;
    if (room <= 0) return;
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.#written += part.length;
    if (!this.#stream.write(part)) this.#pause();
  }

  /** Ends the log and waits (boundedly) until it is written; says how many bytes it holds, or why not all. */
  async finish(): Promise<LogOutcome> {
    this.#resume();
    if (this.#error === undefined && !this.#stream.writableEnded) this.#stream.end();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timedOut'>((resolve) => {
      timer = setTimeout(() => resolve('timedOut'), FINISH_TIMEOUT_MS);
    });
    const ended = finished(this.#stream).then(
      () => 'ended' as const,
      (error: unknown) => {
        this.#fail(error);
        return 'ended' as const;
      },
    );
    const outcome = await Promise.race([ended, timedOut]);
    clearTimeout(timer);
    if (outcome === 'timedOut') {
      this.#fail(new Error(`the log was not written within ${FINISH_TIMEOUT_MS / 1000}s`));
      this.#stream.destroy();
    }
    return this.#error === undefined ? { bytes: this.#written } : { bytes: this.#written, error: this.#error };
  }

  #pause(): void {
    if (this.#paused) return;
    this.#paused = true;
    for (const source of this.#sources) source.pause();
  }

  #resume(): void {
    if (!this.#paused) return;
    this.#paused = false;
    for (const source of this.#sources) source.resume();
  }

  #fail(error: unknown): void {
    this.#error ??=
      (error as NodeJS.ErrnoException | null)?.code ?? (error instanceof Error ? error.message : String(error));
    // The command's output keeps flowing into memory, as it would without a log.
    this.#resume();
  }
}
