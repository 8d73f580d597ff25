import type { Usage } from '../../report/model.js';
import type { UsageExtractor } from '../definition.js';
import { BUILTIN_EXTRACTORS } from './builtin-extractors.js';
import { jsonExtractor, jsonlExtractor } from './declared.js';
import { jsonDocuments } from './json-documents.js';
import { forEachJsonLine, forEachLine, readWhole } from './read-output.js';
import type { RecordExtractor } from './reducer.js';
import { REGEX_TIMEOUT_MS, regexUsage } from './regex-extract.js';
import { addFigures, finishUsage, USAGE_FIELDS } from './usage-fields.js';

/** Bounds of one extraction. */
export interface ExtractUsageOptions {
  /**
   * The most bytes read into memory at once: the whole stdout of single-document formats (a longer
   * one yields no usage), one line of JSONL formats (longer lines are skipped), one window of lines
   * for a regular expression.
   */
  maxBytes: number;
  /** How long a user's regular expression may run over one window of output. @default 5000 */
  regexTimeoutMs?: number;
}

/**
 * Reads an agent's usage from its whole stdout, saved in `stdoutFile` (stdout only: stderr's warnings
 * never break a JSON document). JSONL formats stream line by line in flat memory; single-document
 * formats are parsed whole; lines that are not JSON, before or after, are skipped. Resolves to
 * undefined when the output reports nothing. Throws only for a file that cannot be read and for a
 * user's regular expression that runs out of time (`UsageRegexTimeoutError`).
 */
export async function extractUsage(
  stdoutFile: string,
  extractor: UsageExtractor,
  options: ExtractUsageOptions,
): Promise<Usage | undefined> {
  if ('regex' in extractor) {
    return extractWithRegex(stdoutFile, extractor, options.maxBytes, options.regexTimeoutMs ?? REGEX_TIMEOUT_MS);
  }
  return finishUsage(await reduceRecords(stdoutFile, recordExtractor(extractor), options.maxBytes));
}

function recordExtractor(extractor: Exclude<UsageExtractor, { regex: string }>): RecordExtractor {
  if ('json' in extractor) return jsonExtractor(extractor.json);
  if ('jsonl' in extractor) return jsonlExtractor(extractor.jsonl, extractor.sum === true);
  const builtin = Object.hasOwn(BUILTIN_EXTRACTORS, extractor.builtin)
    ? BUILTIN_EXTRACTORS[extractor.builtin]
    : undefined;
  // parseUsageExtractor refuses unknown names; a definition built in code may still carry one.
  if (!builtin) throw new Error(`unknown built-in usage extractor "${extractor.builtin}"`);
  return builtin;
}

async function reduceRecords(file: string, extractor: RecordExtractor, maxBytes: number): Promise<Usage> {
  const reducer = extractor.reducer();
  if (extractor.source === 'lines') {
    await forEachJsonLine(file, maxBytes, (record) => reducer.add(record));
  } else {
    const text = await readWhole(file, maxBytes);
    for (const document of text === undefined ? [] : jsonDocuments(text)) reducer.add(document);
  }
  return reducer.finish() ?? {};
}

/**
 * A regular expression sees the whole stdout when it fits in `maxBytes`, otherwise consecutive
 * windows of whole lines of up to `maxBytes` each (a match cannot span two windows).
 */
async function extractWithRegex(
  file: string,
  extractor: { regex: string; flags?: string; sum?: boolean },
  maxBytes: number,
  timeoutMs: number,
): Promise<Usage | undefined> {
  const sum = extractor.sum === true;
  const flags = extractor.flags ?? '';
  const match = (text: string) => regexUsage(text, extractor.regex, flags, sum, timeoutMs);
  const whole = await readWhole(file, maxBytes);
  if (whole !== undefined) return finishUsage(match(whole));
  let usage: Usage = {};
  let window: string[] = [];
  let windowBytes = 0;
  const flush = () => {
    if (window.length === 0) return;
    usage = merge(usage, match(window.join('\n')), sum);
    window = [];
    windowBytes = 0;
  };
  await forEachLine(file, maxBytes, (line) => {
    const bytes = Buffer.byteLength(line) + 1;
    if (windowBytes + bytes > maxBytes) flush();
    window.push(line);
    windowBytes += bytes;
  });
  flush();
  return finishUsage(usage);
}

/** Combines the usage of two windows: added up with `sum`, otherwise the later window's figures win. */
function merge(earlier: Usage, later: Usage, sum: boolean): Usage {
  const merged: Usage = { ...earlier };
  for (const field of USAGE_FIELDS) {
    const value = later[field];
    if (value === undefined) continue;
    if (sum && field !== 'model' && typeof value === 'number') {
      merged[field] = addFigures(earlier[field] as number | undefined, value);
    } else Object.assign(merged, { [field]: value });
  }
  return merged;
}
