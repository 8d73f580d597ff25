import { Writable } from 'node:stream';
import type { UsageExtractor } from '../agents/definition.js';
import { recordExtractor } from '../agents/usage/extract-usage.js';
import type { UsageReducer } from '../agents/usage/reducer.js';
import type { Usage } from '../report/model.js';
import { type Budget, budgetExceeded } from './budget.js';

// A budget checked only once the agent has gone lets an agent that never stops spend without bound
// until its timeout. Formats that report usage as they go (each model reply's figures on a line of
// their own: Claude Code's stream-json, opencode's JSON events, declared `jsonl` extractors) are read
// as the output arrives instead, and the agent is stopped as soon as its figures pass the budget.
// Formats that report once, at the end (Codex's `turn.completed` of `exec`, Gemini CLI's and Qwen
// Code's closing `result`), keep the check after the agent.

/** A budget that holds while the agent runs. */
export interface LiveBudget {
  /** Where the agent's stdout goes: on to the file it was bound for, and line by line through the reducer. */
  stream: Writable;
  /** Aborted as soon as the usage so far passes the budget: it ends the agent's whole process tree. */
  signal: AbortSignal;
  /** The usage at the stop, and why, once the budget stopped the agent. */
  stopped(): { usage: Usage; reason: string } | undefined;
}

/**
 * Watches the agent's stdout on its way to `sink` against `budget`, or undefined for an extractor
 * whose format reports usage only at its end. Lines longer than `maxLineBytes` are passed on, unread.
 */
export function liveBudget(
  sink: Writable,
  extractor: UsageExtractor,
  budget: Budget,
  maxLineBytes: number,
): LiveBudget | undefined {
  if ('regex' in extractor) return undefined;
  const format = recordExtractor(extractor);
  const reducer = format.source === 'lines' ? format.reducer() : undefined;
  if (reducer?.current === undefined) return undefined;
  const controller = new AbortController();
  let stop: { usage: Usage; reason: string } | undefined;
  const lines = new LineSplitter(maxLineBytes, (line) => {
    if (stop !== undefined) return;
    const record = parseRecord(line);
    if (record === undefined) return;
    reducer.add(record);
    const usage = (reducer as Required<UsageReducer>).current();
    const reason = usage === undefined ? undefined : budgetExceeded(usage, budget);
    if (usage === undefined || reason === undefined) return;
    stop = { usage, reason };
    controller.abort(new Error(reason));
  });
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(chunk);
      sink.write(chunk, callback);
    },
    final(callback) {
      sink.end(callback);
    },
    destroy(error, callback) {
      sink.destroy(error ?? undefined);
      callback(error);
    },
  });
  return { stream, signal: controller.signal, stopped: () => stop };
}

function parseRecord(line: string): unknown {
  const trimmed = line.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return undefined;
  try {
    return JSON.parse(trimmed);
  } catch {
    return undefined;
  }
}

/** Cuts a byte stream into lines of at most `maxBytes`, dropping longer ones as they stream by. */
class LineSplitter {
  #pending: Buffer[] = [];
  #bytes = 0;
  #overlong = false;

  constructor(
    private readonly maxBytes: number,
    private readonly onLine: (line: string) => void,
  ) {}

  push(chunk: Buffer): void {
    let rest = chunk;
    for (let newline = rest.indexOf(10); newline >= 0; newline = rest.indexOf(10)) {
      this.#keep(rest.subarray(0, newline));
      if (!this.#overlong) this.onLine(Buffer.concat(this.#pending, this.#bytes).toString('utf8'));
      this.#pending = [];
      this.#bytes = 0;
      this.#overlong = false;
      rest = rest.subarray(newline + 1);
    }
    this.#keep(rest);
  }

  #keep(part: Buffer): void {
    if (this.#overlong || part.length === 0) return;
    if (this.#bytes + part.length > this.maxBytes) {
      this.#overlong = true;
      this.#pending = [];
      this.#bytes = 0;
      return;
    }
    this.#pending.push(Buffer.from(part));
    this.#bytes += part.length;
  }
}
