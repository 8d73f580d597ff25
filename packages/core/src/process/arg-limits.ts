import { readFile } from 'node:fs/promises';

// exec(2) copies a command's arguments and environment onto the new process's stack, within two
// limits: each string (an argument, or one `NAME=value` of the environment, its NUL included) at most
// MAX_ARG_STRLEN bytes on Linux, and all of them together, with a pointer each, at most ARG_MAX (a
// quarter of the stack limit, between 128 KiB and 6 MiB). Over either, exec fails with E2BIG, which
// says neither which limit nor which string: this module says both.

/** Linux's MAX_ARG_STRLEN: the bytes one argument or one environment string `NAME=value` may take, its NUL included. */
export const MAX_ARG_STRLEN = 131_072;

const KIB = 1024;
const MIB = 1024 * KIB;
const POINTER_BYTES = 8;

/** The bytes `NAME=value` takes among a command's environment strings, its NUL included. */
export function envStringBytes(name: string, value: string): number {
  return Buffer.byteLength(name) + 1 + Buffer.byteLength(value) + 1;
}

/** What exec was asked to start: the executable and its arguments (argv[0] first), and its environment. */
export interface ExecRequest {
  argv: readonly string[];
  env: Readonly<Record<string, string>>;
  /** The shell command line among `argv`, which messages call "the command line" rather than an argument. */
  command?: string;
}

/** Says why exec refused a command with E2BIG: the one string over Linux's limit, or the total over ARG_MAX. */
export async function explainArgumentLimit(request: ExecRequest): Promise<string> {
  const variables = Object.entries(request.env).map(([name, value]) => ({
    name,
    valueBytes: Buffer.byteLength(value),
    bytes: envStringBytes(name, value),
  }));
  const largest = variables.reduce<(typeof variables)[number] | undefined>(
    (found, variable) => (found === undefined || variable.bytes > found.bytes ? variable : found),
    undefined,
  );
  if (largest !== undefined && largest.bytes > MAX_ARG_STRLEN) {
    return `the environment variable ${largest.name} is ${largest.valueBytes} bytes, over Linux's 128 KiB limit for one environment variable`;
  }
  const longArgument = request.argv.find((argument) => Buffer.byteLength(argument) + 1 > MAX_ARG_STRLEN);
  if (longArgument !== undefined) {
    const what = longArgument === request.command ? 'the command line' : 'an argument of the command';
    return `${what} is ${Buffer.byteLength(longArgument)} bytes, over Linux's 128 KiB limit for one argument`;
  }
  const argumentBytes = request.argv.reduce((sum, argument) => sum + Buffer.byteLength(argument) + 1, 0);
  const environmentBytes = variables.reduce((sum, variable) => sum + variable.bytes, 0);
  const total = argumentBytes + environmentBytes + (request.argv.length + variables.length) * POINTER_BYTES;
  const limit = await argMax();
  const largestText = largest === undefined ? '' : `, the largest ${largest.name} at ${largest.valueBytes} bytes`;
  const limitText = limit === undefined ? 'ARG_MAX' : `ARG_MAX, ${limit} bytes here`;
  return `the command's arguments and environment take ${total} bytes (${variables.length} environment variables${largestText}), over the system's limit for both together (${limitText})`;
}

/** ARG_MAX as Linux computes it for a child of this process, from the stack limit; undefined elsewhere. */
async function argMax(): Promise<number | undefined> {
  if (process.platform !== 'linux') return undefined;
  const limits = await readFile('/proc/self/limits', 'utf8').catch(() => undefined);
  const soft = limits?.match(/^Max stack size\s+(\S+)/m)?.[1];
  if (soft === undefined) return undefined;
  const stack = soft === 'unlimited' ? Number.POSITIVE_INFINITY : Number(soft);
  if (Number.isNaN(stack)) return undefined;
  return Math.max(Math.min(Math.floor(stack / 4), 6 * MIB), 128 * KIB);
}
