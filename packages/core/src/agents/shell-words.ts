/**
 * Splits a command template into simple commands and their words the way a POSIX shell would, for
 * finding flags: quotes are removed (`"--yolo"` is `--yolo`), backslashes escape, and `;`, `&`, `|`,
 * newlines, parentheses and redirections separate. Commands inside `$(…)` and backticks are commands
 * of their own, and the words of `${NAME:+word}`-style expansions are words of the command they
 * stand in. It never runs or expands anything: variables stay as written (`$HOME`).
 */
export function shellCommands(text: string): string[][] {
  const commands: string[][] = [];
  splitInto(text, commands);
  return commands.filter((words) => words.length > 0);
}

/** The program a command runs: the first word of its first command, past `VAR=value` and `env`. */
export function programOf(cmd: string): string | undefined {
  const words = shellCommands(cmd)[0] ?? [];
  const start = words.findIndex((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word) && word !== 'env' && word !== 'exec');
  return start < 0 ? undefined : words[start];
}

function splitInto(text: string, commands: string[][]): void {
  let words: string[] = [];
  let word: string | undefined;
  const endWord = () => {
    if (word !== undefined) words.push(word);
    word = undefined;
  };
  const endCommand = () => {
    endWord();
    commands.push(words);
    words = [];
  };
  let index = 0;
  while (index < text.length) {
    const char = text[index] as string;
    if (char === ' ' || char === '\t') {
      endWord();
      index++;
    } else if (char === '\n' || char === ';' || char === '&' || char === '|' || char === '(' || char === ')') {
      endCommand();
      index++;
    } else if (char === '<' || char === '>') {
      endWord();
      index++;
    } else if (char === '#' && word === undefined) {
      const newline = text.indexOf('\n', index);
      index = newline < 0 ? text.length : newline;
    } else if (char === "'") {
      const end = text.indexOf("'", index + 1);
      const close = end < 0 ? text.length : end;
      word = (word ?? '') + text.slice(index + 1, close);
      index = close + 1;
    } else if (char === '"') {
      index = doubleQuoted(
        text,
        index + 1,
        (part) => {
          word = (word ?? '') + part;
        },
        commands,
      );
    } else if (char === '\\') {
      word = (word ?? '') + (text[index + 1] ?? '');
      index += 2;
    } else if (char === '`') {
      const end = closingBacktick(text, index + 1);
      splitInto(text.slice(index + 1, end), commands);
      word = `${word ?? ''}\`…\``;
      index = end + 1;
    } else if (text.startsWith('$(', index)) {
      const end = closingParen(text, index + 2);
      splitInto(text.slice(index + 2, end), commands);
      word = `${word ?? ''}$(…)`;
      index = end + 1;
    } else if (text.startsWith('${', index)) {
      const end = closingBrace(text, index + 2);
      const alternative = /^[A-Za-z_][A-Za-z0-9_]*:?[-+=?](.*)$/s.exec(text.slice(index + 2, end));
      if (alternative) {
        // `${X:+-c a -c "b"}` expands to words of this very command.
        endWord();
        const inner: string[][] = [];
        splitInto(alternative[1] ?? '', inner);
        for (const [position, innerWords] of inner.entries()) {
          if (position === 0) words.push(...innerWords);
          else commands.push(innerWords);
        }
        word = undefined;
      } else word = `${word ?? ''}${text.slice(index, end + 1)}`;
      index = end + 1;
    } else {
      word = (word ?? '') + char;
      index++;
    }
  }
  endCommand();
}

/** Reads a double-quoted string from `start`; returns the index after its closing quote. */
function doubleQuoted(text: string, start: number, append: (part: string) => void, commands: string[][]): number {
  let index = start;
  while (index < text.length && text[index] !== '"') {
    const char = text[index] as string;
    if (char === '\\' && index + 1 < text.length) {
      const next = text[index + 1] as string;
      append('$`"\\\n'.includes(next) ? next : `\\${next}`);
      index += 2;
    } else if (text.startsWith('$(', index)) {
      const end = closingParen(text, index + 2);
      splitInto(text.slice(index + 2, end), commands);
      append('$(…)');
      index = end + 1;
    } else if (char === '`') {
      const end = closingBacktick(text, index + 1);
      splitInto(text.slice(index + 1, end), commands);
      append('`…`');
      index = end + 1;
    } else {
      append(char);
      index++;
    }
  }
  return index + 1;
}

function closingBacktick(text: string, from: number): number {
  for (let index = from; index < text.length; index++) {
    if (text[index] === '\\') index++;
    else if (text[index] === '`') return index;
  }
  return text.length;
}

/** The index of the `)` that closes a `$(` whose content starts at `from`, skipping quotes. */
function closingParen(text: string, from: number): number {
  return closing(text, from, '(', ')');
}

function closingBrace(text: string, from: number): number {
  return closing(text, from, '{', '}');
}

function closing(text: string, from: number, open: string, close: string): number {
  let depth = 0;
  for (let index = from; index < text.length; index++) {
    const char = text[index];
    if (char === '\\') index++;
    else if (char === "'") {
      const end = text.indexOf("'", index + 1);
      index = end < 0 ? text.length : end;
    } else if (char === '"') {
      for (index++; index < text.length && text[index] !== '"'; index++) if (text[index] === '\\') index++;
    } else if (char === open) depth++;
    else if (char === close) {
      if (depth === 0) return index;
      depth--;
    }
  }
  return text.length;
}
