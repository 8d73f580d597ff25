import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { droppedMarker } from './output-buffer.js';
import { agent, runIn } from './test-support/processes.js';
import type { ProcessResult, RunProcessOptions } from './types.js';

const MiB = 1024 * 1024;

let dir: string;

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'gz-bench-log-')));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs `command` with its whole output logged to a file; returns the result and the file's bytes. */
async function runLogged(
  command: string,
  overrides: Partial<RunProcessOptions> = {},
): Promise<{ result: ProcessResult; logged: Buffer }> {
  const path = join(dir, 'command.log');
  const result = await runIn(dir, command, { timeoutMs: 60_000, log: createWriteStream(path), ...overrides });
  return { result, logged: await readFile(path) };
}

/** The numbers 0…count-1 as fixtures/agents/interleaved.mjs writes them to stdout (lowercase) or stderr. */
function streamText(lowercase: boolean, count: number): string {
  const [digits, separator] = lowercase ? ['abcdefghijklmnop', 'q'] : ['ABCDEFGHIJKLMNOP', 'Q'];
  let text = '';
  for (let n = 0; n < count; n += 1) {
    text += [...n.toString(16)].map((digit) => digits[Number.parseInt(digit, 16)]).join('') + separator;
  }
  return text;
}

/**
 * Checks that the combined output holds each stream's bytes whole and in order, however they
 * interleave: the letters of each stream, taken apart, must be exactly what it wrote.
 */
function expectBothStreamsWhole(combined: string): void {
  const out = combined.replace(/[^a-q]/g, '');
  const err = combined.replace(/[^A-Q]/g, '');
  expect(out.length + err.length).toBe(combined.length);
  const outCount = out.split('q').length - 1;
  const errCount = err.split('Q').length - 1;
  expect(outCount).toBeGreaterThan(1000);
  expect(out).toBe(streamText(true, outCount));
  expect(err).toBe(streamText(false, errCount));
}

// Floods of megabytes through real pipes: seconds on a busy machine.
describe('runProcess: the output log', { timeout: 60_000 }, () => {
  it('holds exactly the bytes of the in-memory capture, stdout and stderr interleaved alike', async () => {
    const { result, logged } = await runLogged(agent('interleaved', '0.5'));

    expect(result.exitCode).toBe(0);
    expect(result.output.droppedBytes).toBe(0);
    expect(logged.equals(Buffer.from(result.output.text))).toBe(true);
    expect(result.log).toEqual({ bytes: result.output.totalBytes });
    const text = logged.toString();
    expectBothStreamsWhole(text);
    // By turns, not one stream after the other.
    expect(text.indexOf('Q')).toBeLessThan(text.lastIndexOf('q'));
  });

  it('holds the whole of an output larger than the capture, which keeps its head and tail', async () => {
    const { result, logged } = await runLogged(agent('interleaved', '6'), { outputLimitBytes: MiB });

    expect(result.exitCode).toBe(0);
    expect(logged.length).toBe(result.output.totalBytes);
    expect(logged.length).toBeGreaterThanOrEqual(6 * MiB);
    expect(result.log).toEqual({ bytes: logged.length });
    expectBothStreamsWhole(logged.toString());
    // The capture is the log's first and last MiB, around the marker of what it dropped.
    const dropped = logged.length - 2 * MiB;
    expect(result.output.droppedBytes).toBe(dropped);
    expect(result.output.text).toBe(
      `${logged.subarray(0, MiB).toString()}${droppedMarker(dropped)}${logged.subarray(logged.length - MiB).toString()}`,
    );
  });

  it('holds exactly the first maxOutputBytes of a flood that the limit ends', async () => {
    const { result, logged } = await runLogged(agent('flood', '50'), { maxOutputBytes: MiB + 123 });

    expect(result.limitExceeded).toMatchObject({ kind: 'output', limitBytes: MiB + 123 });
    expect(result.output.totalBytes).toBeGreaterThan(MiB + 123);
    expect(logged.length).toBe(MiB + 123);
    expect(result.log).toEqual({ bytes: MiB + 123 });
    expect(logged.subarray(0, 12).toString()).toBe('FLOOD-START\n');
    expect(logged.toString()).toBe(result.output.text.slice(0, MiB + 123));
  });

  it('pauses the command while the log is full, so a 200 MB flood into a slow log never queues in memory', async () => {
    const highWaterMark = MiB;
    let received = 0;
    let mostBuffered = 0;
    const slowLog = new Writable({
      highWaterMark,
      write(chunk: Buffer, _encoding, done) {
        received += chunk.length;
        // A disk that takes a millisecond per write: some 60 MB/s for the flood's 64 KiB writes.
        setTimeout(done, 1);
      },
    });
    const baseline = process.memoryUsage.rss();
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage.rss());
      mostBuffered = Math.max(mostBuffered, slowLog.writableLength);
    }, 20);
    let result: ProcessResult;
    try {
      result = await runIn(dir, agent('flood', '200'), { timeoutMs: 120_000, log: slowLog });
    } finally {
      clearInterval(sampler);
    }

    expect(result.exitCode).toBe(0);
    expect(result.output.totalBytes).toBe(200 * MiB);
    expect(result.log).toEqual({ bytes: 200 * MiB });
    expect(received).toBe(200 * MiB);
    // At most a chunk from each pipe arrives after the log filled up.
    expect(mostBuffered).toBeLessThanOrEqual(highWaterMark + 2 * 64 * 1024);
    // Without the pause, the 200 MB would sit in the log's buffer.
    expect(peak - baseline).toBeLessThan(64 * MiB);
  }, 120_000);

  it('gives up a log that fails (a full disk) and lets the command run on, its output captured', async () => {
    let accepted = 0;
    const failingLog = new Writable({
      write(chunk: Buffer, _encoding, done) {
        if (accepted + chunk.length > 100_000) {
          done(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }));
          return;
        }
        accepted += chunk.length;
        done();
      },
    });

    const result = await runIn(dir, agent('flood', '5'), { timeoutMs: 60_000, log: failingLog });

    expect(result.exitCode).toBe(0);
    expect(result.output.totalBytes).toBe(5 * MiB);
    expect(result.log?.error).toBe('ENOSPC');
    expect(accepted).toBeLessThanOrEqual(100_000);
  });

  it('ends the log of a command that could not start, or was aborted before it did', async () => {
    const missingCwd = join(dir, 'missing');
    const notStarted = await runLogged('echo never', { cwd: missingCwd });
    expect(notStarted.result.spawnError).toContain('working directory does not exist');
    expect(notStarted.result.log).toEqual({ bytes: 0 });
    expect(notStarted.logged.length).toBe(0);

    const aborted = await runLogged('echo never', { signal: AbortSignal.abort() });
    expect(aborted.result.aborted).toBe(true);
    expect(aborted.result.log).toEqual({ bytes: 0 });
  });
});
