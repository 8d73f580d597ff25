import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { type Change, type Comparison, kindName } from './compare.js';
import { hashBytes, readBounded } from './file-content.js';
import { type SnapshotEntry, unchangedFixtureFile, type WorkspaceSnapshot } from './snapshot.js';
import type { ChangedFile, WorkspaceChanges } from './types.js';
import { unifiedHunks } from './unified-diff.js';

// The unified diff of a comparison, as `diff -ruN a b` would print it of the workspace before and
// after the agent (without the timestamps on `---` and `+++` lines), file by file in diff's order,
// with a line instead of the content where diff would print none: binary files, files over the size
// limit, files whose content before was not kept, links, special files, permission changes. The text
// is built as latin1 (a byte per character), so names and contents go through byte for byte.

/** Changed files listed in the row at most; `unlisted` counts the rest. */
export const MAX_LISTED_FILES = 1000;

/** Bytes diff looks at for a NUL to call a file binary. */
const BINARY_PROBE_BYTES = 8 * 1024;

/** The row's `changes` (without `file`) and the diff's bytes. */
export interface RenderedChanges {
  changes: WorkspaceChanges;
  diff: Buffer;
}

/** Renders the comparison of `snapshot` with the workspace. */
export function renderChanges(snapshot: WorkspaceSnapshot, comparison: Comparison): RenderedChanges {
  const { maxFileBytes, maxDiffBytes } = snapshot.plan.settings;
  const reader = new BeforeReader(snapshot);
  const counts = { added: 0, modified: 0, deleted: 0, linesAdded: 0, linesRemoved: 0 };
  const files: ChangedFile[] = [];
  const pieces: string[] = [];
  let bytes = 0;
  let truncatedAt: number | undefined;
  for (const [index, change] of comparison.changes.entries()) {
    counts[change.status] += 1;
    const file: ChangedFile = { path: Buffer.from(change.key, 'latin1').toString('utf8'), status: change.status };
    const modeChange = modeChangeOf(change);
    if (modeChange !== undefined) file.modeChange = modeChange;
    if (change.before?.kind === 'symlink' || change.after?.kind === 'symlink') file.symlink = true;
    if (truncatedAt === undefined) {
      const piece = renderFile(change, file, reader, maxFileBytes);
      counts.linesAdded += file.linesAdded ?? 0;
      counts.linesRemoved += file.linesRemoved ?? 0;
      if (bytes + piece.length <= maxDiffBytes) {
        pieces.push(piece);
        bytes += piece.length;
      } else {
        // Cut at the last whole line that fits.
        const cut = piece.lastIndexOf('\n', maxDiffBytes - bytes - 1);
        if (cut >= 0) pieces.push(piece.slice(0, cut + 1));
        truncatedAt = index;
      }
    }
    if (files.length < MAX_LISTED_FILES) files.push(file);
  }
  reader.close();
  for (const problem of comparison.problems) {
    pieces.push(
      `# not compared: ${quote(problem.key === '' ? '.' : problem.key)} could not be read (${problem.code})\n`,
    );
  }
  if (comparison.stopped) pieces.push('# not compared: the workspace has too many entries; the walk stopped\n');
  if (truncatedAt !== undefined) {
    const rest = comparison.changes.length - truncatedAt;
    pieces.push(
      `# the diff was cut at ${Math.round(maxDiffBytes / 1024)} KiB (changes.maxDiffKB): ${rest} changed ${rest === 1 ? 'file is' : 'files are'} not shown in full\n`,
    );
  }
  const diff = Buffer.from(pieces.join(''), 'latin1');
  const total = comparison.changes.length;
  return {
    changes: {
      ...counts,
      files,
      ...(total > files.length && { unlisted: total - files.length }),
      diffBytes: diff.length,
      ...(truncatedAt !== undefined && { truncated: true }),
      excluded: snapshot.plan.settings.exclude,
    },
    diff,
  };
}

/** One file's part of the diff; sets its line counts and marks on `file`. */
function renderFile(change: Change, file: ChangedFile, reader: BeforeReader, maxFileBytes: number): string {
  const a = quote(`a/${change.key}`);
  const b = quote(`b/${change.key}`);
  let text = `diff -ruN ${a} ${b}\n`;
  if (file.modeChange !== undefined) {
    text += `old mode ${octal(change.before?.mode)}\nnew mode ${octal(change.after?.mode)}\n`;
  }
  if (change.modeOnly) return text;
  const { before, after } = change;
  const beforeKind = before?.kind;
  const afterKind = after?.kind;
  if ((beforeKind ?? 'file') !== 'file' || (afterKind ?? 'file') !== 'file') {
    if (beforeKind === 'symlink' && afterKind === 'symlink') {
      return `${text}Symbolic links ${a} -> ${quote(before?.target ?? '')} and ${b} -> ${quote(after?.target ?? '')} differ\n`;
    }
    return `${text}File ${a} is ${side(before)} while file ${b} is ${side(after)}\n`;
  }
  const old = before === undefined ? Buffer.alloc(0) : reader.read(change.key, before, maxFileBytes);
  const now = after === undefined ? Buffer.alloc(0) : readBounded(after.path, after.stats, maxFileBytes);
  if (old === 'tooLarge' || now === 'tooLarge') {
    file.tooLarge = true;
    return `${text}Files ${a} and ${b} differ: larger than ${Math.round(maxFileBytes / 1024)} KiB (changes.maxFileKB), not shown\n`;
  }
  if (old === undefined)
    return `${text}Files ${a} and ${b} differ: the content of ${a} before the agent was not kept\n`;
  if (now === undefined) return `${text}Files ${a} and ${b} differ: ${b} could not be read\n`;
  if (isBinary(old) || isBinary(now)) {
    file.binary = true;
    // diff -r prints this line alone, without its `diff` line, unless a mode line needs it.
    return `${file.modeChange === undefined ? '' : text}Binary files ${a} and ${b} differ\n`;
  }
  const hunks = unifiedHunks(old.toString('latin1'), now.toString('latin1'));
  file.linesAdded = hunks.added;
  file.linesRemoved = hunks.removed;
  // diff prints nothing of an empty file added or deleted, nor of equal contents; a line says what happened.
  if (hunks.text === '')
    return `${text}Files ${a} and ${b} have the same content (${change.status === 'modified' ? 'rewritten' : `empty, ${change.status}`})\n`;
  return `${text}--- ${a}\n+++ ${b}\n${hunks.text}`;
}

function side(entry: SnapshotEntry | undefined): string {
  if (entry === undefined) return 'absent';
  const name = kindName(entry.kind, entry.mode);
  if (entry.kind === 'symlink') return `a symbolic link to ${quote(entry.target ?? '')}`;
  return `a ${name}`;
}

function isBinary(content: Buffer): boolean {
  return content.subarray(0, BINARY_PROBE_BYTES).includes(0);
}

function modeChangeOf(change: Change): string | undefined {
  const { before, after } = change;
  if (before?.kind !== 'file' || after?.kind !== 'file') return undefined;
  const old = before.mode & 0o7777;
  const now = after.mode & 0o7777;
  return old === now ? undefined : `${old.toString(8)} → ${now.toString(8)}`;
}

function octal(mode: number | undefined): string {
  return (mode ?? 0).toString(8).padStart(6, '0');
}

const NAMED_ESCAPES: Record<string, string> = { '\n': '\\n', '\t': '\\t', '\r': '\\r', '"': '\\"', '\\': '\\\\' };

/** A control character: below a space, or DEL. */
function isControl(code: number): boolean {
  return code < 0x20 || code === 0x7f;
}

/**
 * A name as the diff shows it: as it is (as diff prints it), or, when it holds a control character
 * (a newline would break the diff's lines), in double quotes with C escapes, as git quotes names.
 */
export function quote(name: string): string {
  let control = false;
  for (let index = 0; index < name.length && !control; index += 1) control = isControl(name.charCodeAt(index));
  if (!control) return name;
  let escaped = '';
  for (const char of name) {
    const code = char.charCodeAt(0);
    escaped += NAMED_ESCAPES[char] ?? (isControl(code) ? `\\${code.toString(8).padStart(3, '0')}` : char);
  }
  return `"${escaped}"`;
}

/** Reads content before the agent back: from the fixture while its file is unchanged, or from the kept file while it has the snapshot's hash. */
class BeforeReader {
  #kept: number | undefined | null = null;

  constructor(private readonly snapshot: WorkspaceSnapshot) {}

  read(key: string, entry: SnapshotEntry, maxBytes: number): Buffer | 'tooLarge' | undefined {
    if (entry.size > maxBytes) return 'tooLarge';
    const content = this.#content(key, entry, maxBytes);
    if (content === undefined) return undefined;
    // A fixture file still of its identity needs no hash; any other content must still have its hash.
    if (entry.source === 'fixture' && entry.hash === undefined) return content;
    return entry.hash !== undefined && hashBytes(content) === entry.hash ? content : undefined;
  }

  close(): void {
    if (typeof this.#kept === 'number') closeSync(this.#kept);
    this.#kept = undefined;
  }

  #content(key: string, entry: SnapshotEntry, maxBytes: number): Buffer | undefined {
    const { source } = entry;
    if (source === 'fixture') {
      const file = unchangedFixtureFile(this.snapshot, key, entry);
      const content = file === undefined ? undefined : readBounded(file.path, file.stats, maxBytes);
      // Still unchanged after the read: nothing wrote it meanwhile.
      return Buffer.isBuffer(content) && unchangedFixtureFile(this.snapshot, key, entry) !== undefined
        ? content
        : undefined;
    }
    if (source === undefined) return undefined;
    const fd = this.#keptFd();
    if (fd === undefined) return undefined;
    const out = Buffer.alloc(source.length);
    try {
      return readSync(fd, out, 0, source.length, source.offset) === source.length ? out : undefined;
    } catch {
      return undefined;
    }
  }

  #keptFd(): number | undefined {
    if (this.#kept !== null) return this.#kept;
    this.#kept = undefined;
    try {
      const fd = openSync(
        this.snapshot.plan.keptFile,
        constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
      );
      if (fstatSync(fd).isFile()) this.#kept = fd;
      else closeSync(fd);
    } catch {
      // Gone or replaced: the content before is not kept.
    }
    return this.#kept;
  }
}
