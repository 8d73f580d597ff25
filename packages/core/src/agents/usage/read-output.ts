import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';

/**
 * Calls `onLine` with every line of the file that parses as JSON, reading it in chunks so that
 * memory stays flat however long the output is. Lines that are not JSON (banners, warnings) are
 * skipped, and so are lines longer than `maxLineBytes`, which are dropped as they stream by. A
 * pretty-printed document (a line that is only `{` or `[`, its members indented deeper, up to the
 * line that closes it at the same indent) is one record too, when it holds at most `maxLineBytes`:
 * a CLI that prints either JSONL or one indented document is read by one extractor.
 */
export async function forEachJsonLine(
  file: string,
  maxLineBytes: number,
  onLine: (record: unknown) => void,
): Promise<void> {
  let document: { lines: string[]; bytes: number; indent: number; closer: string } | undefined;
  const parse = (text: string) => {
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch {
      return;
    }
    onLine(record);
  };
  const read = (line: string) => {
    const trimmed = line.trim();
    if (trimmed === '{' || trimmed === '[') {
      const indent = line.length - line.trimStart().length;
      const closer = `${line.slice(0, indent)}${trimmed === '{' ? '}' : ']'}`;
      document = { lines: [line], bytes: Buffer.byteLength(line), indent, closer };
      return;
    }
    if (trimmed.startsWith('{') || trimmed.startsWith('[')) parse(trimmed);
  };
  await forEachLine(
    file,
    maxLineBytes,
    (line) => {
      if (!document) return read(line);
      if (line.trimEnd() === document.closer) {
        const { lines, bytes } = document;
        document = undefined;
        if (bytes + Buffer.byteLength(line) + 1 <= maxLineBytes) parse(`${lines.join('\n')}\n${line}`);
        return;
      }
      // A member at the opening's indent or left of it: that line was no document's opening after all.
      if (line.trim() !== '' && line.length - line.trimStart().length <= document.indent) {
        document = undefined;
        return read(line);
      }
      document.bytes += Buffer.byteLength(line) + 1;
      // Too long to hold: dropped like an overlong line (its members are no records of their own).
      if (document.bytes <= maxLineBytes) document.lines.push(line);
      else document.lines = [];
    },
    () => {
      // A member line too long to keep: the document is too long as a whole.
      if (document) document.bytes = Number.POSITIVE_INFINITY;
    },
  );
}

/**
 * Calls `onLine` with every line (without its end) of at most `maxLineBytes` bytes, and
 * `onOverlong` in place of each longer one.
 */
export async function forEachLine(
  file: string,
  maxLineBytes: number,
  onLine: (line: string) => void,
  onOverlong: () => void = () => {},
): Promise<void> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let overlong = false;
  const flush = () => {
    if (overlong) onOverlong();
    else onLine(Buffer.concat(pending, pendingBytes).toString('utf8'));
    pending = [];
    pendingBytes = 0;
    overlong = false;
  };
  for await (const chunk of createReadStream(file, { highWaterMark: 256 * 1024 })) {
    let buffer = chunk as Buffer;
    for (let newline = buffer.indexOf(10); newline >= 0; newline = buffer.indexOf(10)) {
      keep(buffer.subarray(0, newline));
      flush();
      buffer = buffer.subarray(newline + 1);
    }
    keep(buffer);
  }
  if (pendingBytes > 0 || pending.length > 0) flush();

  function keep(part: Buffer): void {
    if (overlong || part.length === 0) return;
    if (pendingBytes + part.length > maxLineBytes) {
      overlong = true;
      pending = [];
      pendingBytes = 0;
      return;
    }
    // A copy: the stream reuses nothing, but a subarray would pin the whole chunk in memory.
    pending.push(Buffer.from(part));
    pendingBytes += part.length;
  }
}

/** The file's text when it holds at most `maxBytes` bytes, or undefined for a longer file. */
export async function readWhole(file: string, maxBytes: number): Promise<string | undefined> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    if (size > maxBytes) return undefined;
    const buffer = Buffer.alloc(size);
    let offset = 0;
    while (offset < size) {
      const { bytesRead } = await handle.read(buffer, offset, size - offset, offset);
      if (bytesRead === 0) break;
      offset += bytesRead;
    }
    return buffer.subarray(0, offset).toString('utf8');
  } finally {
    await handle.close();
  }
}
