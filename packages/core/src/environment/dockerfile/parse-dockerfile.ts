// A Dockerfile read as its instructions, the way BuildKit's frontend reads one: `\` joins lines,
// `#` lines are comments (the leading ones may be parser directives), and each instruction is its
// keyword, its `--flag=value` options and its arguments, in shell form or as a JSON array.

/** One instruction of a Dockerfile. */
export interface Instruction {
  /** Upper case: FROM, RUN, COPY… */
  keyword: string;
  /** `--from=build`, `--chown=app` and the like, by name. */
  flags: Record<string, string>;
  /** The arguments as written, after the flags (shell form), or undefined for the JSON form. */
  text: string;
  /** The JSON array form's items (`RUN ["python3", "x.py"]`), when written so. */
  json?: string[];
  /** The line the instruction starts on, from 1. */
  line: number;
}

/** Raised for a Dockerfile this reader cannot take: the message names the line. */
export class DockerfileError extends Error {
  override name = 'DockerfileError';
}

// Instructions whose options come as `--name=value` before the arguments.
const WITH_FLAGS = new Set(['FROM', 'RUN', 'COPY', 'ADD', 'HEALTHCHECK']);

/** The instructions of a Dockerfile's text. */
export function parseDockerfile(source: string): Instruction[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const escapeChar = escapeDirective(lines);
  const instructions: Instruction[] = [];
  let pending: { text: string; line: number } | undefined;
  for (const [index, raw] of lines.entries()) {
    const trimmed = raw.trim();
    // Comments and blank lines may sit inside a continued instruction, and are dropped there too.
    if (trimmed.startsWith('#') || (trimmed === '' && pending === undefined)) continue;
    const continued = trimmed.endsWith(escapeChar) && !trimmed.endsWith(escapeChar + escapeChar);
    const piece = continued ? trimmed.slice(0, -1) : trimmed;
    pending =
      pending === undefined ? { text: piece, line: index + 1 } : { ...pending, text: `${pending.text} ${piece}` };
    if (continued) continue;
    instructions.push(instructionOf(pending.text.trim(), pending.line));
    pending = undefined;
  }
  if (pending !== undefined && pending.text.trim() !== '')
    instructions.push(instructionOf(pending.text.trim(), pending.line));
  return instructions;
}

/** The escape character a `# escape=` directive at the top sets (`\` by default). */
function escapeDirective(lines: readonly string[]): string {
  for (const line of lines) {
    const directive = /^#\s*([a-z]+)\s*=\s*(\S+)\s*$/i.exec(line.trim());
    if (directive === null) return '\\';
    if (directive[1]?.toLowerCase() === 'escape' && (directive[2] === '`' || directive[2] === '\\'))
      return directive[2];
  }
  return '\\';
}

function instructionOf(text: string, line: number): Instruction {
  const match = /^(\S+)\s*([\s\S]*)$/.exec(text);
  const keyword = (match?.[1] ?? '').toUpperCase();
  let rest = match?.[2] ?? '';
  if (/<<-?["']?[A-Za-z_]/.test(rest) && ['RUN', 'COPY', 'ADD'].includes(keyword)) {
    throw new DockerfileError(`line ${line}: here-documents (${keyword} <<EOF) are not supported`);
  }
  const flags: Record<string, string> = {};
  if (WITH_FLAGS.has(keyword)) {
    for (
      let flag = /^--([a-z-]+)(?:=(\S*))?\s*/.exec(rest);
      flag !== null;
      flag = /^--([a-z-]+)(?:=(\S*))?\s*/.exec(rest)
    ) {
      flags[flag[1] as string] = flag[2] ?? 'true';
      rest = rest.slice(flag[0].length);
    }
  }
  const json = jsonForm(rest);
  return { keyword, flags, text: rest, ...(json && { json }), line };
}

/** The items of a JSON array of strings, or undefined when the arguments are not one (shell form). */
function jsonForm(text: string): string[] | undefined {
  if (!text.startsWith('[')) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `$NAME`, `${NAME}`, `${NAME:-default}` and `${NAME:+alternative}` replaced from `vars`, as Docker
 * does in FROM, COPY, ENV, WORKDIR and the like (RUN leaves them to its shell). `\$` stays a `$`.
 */
export function expandVars(text: string, vars: Readonly<Record<string, string>>): string {
  return text.replace(
    /\\\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::([-+])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (whole, braced: string | undefined, op: string | undefined, word: string | undefined, bare: string | undefined) => {
      if (whole === '\\$') return '$';
      const value = vars[(braced ?? bare) as string];
      if (op === '-') return value === undefined || value === '' ? (word ?? '') : value;
      if (op === '+') return value === undefined || value === '' ? '' : (word ?? '');
      return value ?? '';
    },
  );
}

/**
 * The `NAME=value` pairs of an ENV, ARG or LABEL line (values may be quoted), or the old `ENV NAME
 * value` form, whose value is the rest of the line.
 */
export function keyValuePairs(text: string, keyword: string, line: number): [string, string | undefined][] {
  const old = /^([^\s=]+)\s+(.*)$/s.exec(text);
  if (old !== null && keyword === 'ENV' && !old[1]?.includes('=')) return [[old[1] as string, old[2] as string]];
  const pairs: [string, string | undefined][] = [];
  // A name holds no quote: `A="unterminated` is an error, not a pair A and a name `"unterminated`.
  const pair = /([^\s="']+)(?:=("(?:[^"\\]|\\.)*"|'[^']*'|(?:[^\s"'\\]|\\.)*))?\s*/y;
  const rest = text.trim();
  while (pair.lastIndex < rest.length) {
    const at = pair.lastIndex;
    const match = pair.exec(rest);
    if (match === null || pair.lastIndex === at)
      throw new DockerfileError(`line ${line}: cannot read ${keyword} ${text}`);
    pairs.push([match[1] as string, match[2] === undefined ? undefined : unquote(match[2])]);
  }
  if (pairs.length === 0) throw new DockerfileError(`line ${line}: ${keyword} needs a NAME=value`);
  return pairs;
}

function unquote(value: string): string {
  if (value.startsWith('"') && value.endsWith('"')) return value.slice(1, -1).replace(/\\(.)/g, '$1');
  if (value.startsWith("'") && value.endsWith("'")) return value.slice(1, -1);
  return value.replace(/\\(.)/g, '$1');
}
