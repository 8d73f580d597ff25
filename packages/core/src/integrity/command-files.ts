import { posix } from 'node:path';

// Which fixture files a command check runs: those are checkers the agent may not change.

/** Programs that run the script named by their first argument that is not an option. */
const INTERPRETERS = new Set([
  'sh',
  'bash',
  'dash',
  'zsh',
  'ksh',
  'node',
  'nodejs',
  'deno',
  'bun',
  'tsx',
  'ts-node',
  'python',
  'python3',
  'ruby',
  'perl',
  'php',
]);
/** Words that run the rest of the command line as a command of its own. */
const WRAPPERS = new Set(['exec', 'command', 'time', 'nohup', 'env', 'builtin']);

/**
 * The words of a command line that name programs or scripts it runs: per simple command (split at
 * unquoted `;`, `&`, `|`, parentheses, backticks and newlines), after variable assignments and
 * wrappers such as `env` or `exec`, the program itself, and for an interpreter its script, or the
 * command line it gets with `-c`, whose files are found the same way.
 */
export function executedFiles(command: string, depth = 0): string[] {
  const files: string[] = [];
  for (const segment of simpleCommands(command)) {
    const words = shellWords(segment);
    let index = 0;
    while (
      index < words.length &&
      (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[index] as string) || WRAPPERS.has(words[index] as string))
    ) {
      index += 1;
    }
    const program = words[index];
    if (program === undefined) continue;
    files.push(program);
    if (!INTERPRETERS.has(posix.basename(program))) continue;
    const args = words.slice(index + 1);
    const inline = args.indexOf('-c');
    if (inline !== -1) {
      const script = args[inline + 1];
      if (script !== undefined && depth < 3) files.push(...executedFiles(script, depth + 1));
      continue;
    }
    const script = args.find((arg) => !arg.startsWith('-'));
    if (script !== undefined) files.push(script);
  }
  return files;
}

/** Splits a command line at unquoted command separators, keeping quotes for `shellWords`. */
function simpleCommands(command: string): string[] {
  const segments: string[] = [];
  let current = '';
  let quote: '"' | "'" | undefined;
  for (let index = 0; index < command.length; index += 1) {
    const char = command[index] as string;
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
      else if (char === '\\' && quote === '"') {
        current += char + (command[index + 1] ?? '');
        index += 1;
        continue;
      }
      current += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      current += char;
    } else if (char === '\\') {
      current += char + (command[index + 1] ?? '');
      index += 1;
    } else if (';&|()`\n'.includes(char)) {
      segments.push(current);
      current = '';
    } else current += char;
  }
  segments.push(current);
  return segments.filter((segment) => segment.trim() !== '');
}

/**
 * Splits a shell command line into words the way a reader would: on whitespace and the operators
 * ``;&|()<>` ``, with quotes removed and backslash escapes applied. Not a shell parser: expansions
 * stay literal.
 */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let index = 0; index < command.length; index += 1) {
    const char = command[index] as string;
    const next = command[index + 1];
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word += char;
    } else if (quote === '"') {
      if (char === '"') quote = undefined;
      else if (char === '\\' && next !== undefined && '"\\$`'.includes(next)) {
        word += next;
        index += 1;
      } else word += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      inWord = true;
    } else if (char === '\\') {
      // A backslash-newline joins lines; any other escaped character is literal.
      if (next !== undefined && next !== '\n') {
        word += next;
        inWord = true;
      }
      index += 1;
    } else if (/\s/.test(char) || SHELL_OPERATORS.includes(char)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

const SHELL_OPERATORS = ';&|()<>`';
