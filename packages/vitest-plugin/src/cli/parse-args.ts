import { type ParseArgsConfig, parseArgs } from 'node:util';
import { UsageError } from './usage-error.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** The flags and positionals of one command line, parsed strictly. */
export interface ParsedArgs<T> {
  values: T;
  positionals: string[];
}

/**
 * Parses arguments strictly: unknown flags, flags given twice and flags missing their value are
 * usage errors, never silently ignored or overwritten.
 */
export function parseStrict<T>(args: string[], options: Options): ParsedArgs<T> {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args, options, strict: true, allowPositionals: true, tokens: true });
  } catch (error) {
    throw new UsageError(plainParseError(error));
  }
  const seen = new Set<string>();
  for (const token of parsed.tokens ?? []) {
    if (token.kind !== 'option') continue;
    // Flags that collect several values (`--allow-env A --allow-env B`) may repeat; others may not.
    if (seen.has(token.name) && options[token.name]?.multiple !== true) {
      throw new UsageError(`--${token.name} was given more than once`);
    }
    seen.add(token.name);
    if (options[token.name]?.type === 'string' && token.value === '') {
      throw new UsageError(`--${token.name} needs a non-empty value`);
    }
  }
  return { values: parsed.values as T, positionals: parsed.positionals };
}

function plainParseError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // Node's messages end with advice about parseArgs itself; the first sentence is the useful part.
  return message.split('. To specify a positional argument')[0]?.replace(/\.$/, '') ?? message;
}
