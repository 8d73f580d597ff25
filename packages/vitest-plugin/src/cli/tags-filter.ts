// `--tags-filter` is Vitest's, and Vitest reports a malformed expression or an unknown tag as an
// unhandled error of the run, after starting it. The CLI reads the expression first, with Vitest's
// grammar (or := and ("||" | "or") and…; and := unary ("&&" | "and") unary…; unary := ("!" | "not")
// unary | "(" or ")" | tag, where `*` in a tag is a wildcard), so that a mistake is one line and exit 2.

type Token = { type: 'tag'; value: string } | { type: '(' | ')' | '!' | '&&' | '||' | 'end' };

function tokenize(expr: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const startsWord = (word: RegExp) => word.test(expr.slice(i));
  while (i < expr.length) {
    const char = expr[i] as string;
    if (char === ' ' || char === '\t') i += 1;
    else if (char === '(' || char === ')' || char === '!') {
      tokens.push({ type: char });
      i += 1;
    } else if (expr.startsWith('&&', i) || expr.startsWith('||', i)) {
      tokens.push({ type: expr.startsWith('&&', i) ? '&&' : '||' });
      i += 2;
    } else if (startsWord(/^and(?:\s|\)|$)/i)) {
      tokens.push({ type: '&&' });
      i += 3;
    } else if (startsWord(/^or(?:\s|\)|$)/i)) {
      tokens.push({ type: '||' });
      i += 2;
    } else if (startsWord(/^not\s/i)) {
      tokens.push({ type: '!' });
      i += 3;
    } else {
      const match = /^[^ \t()!&|]+/.exec(expr.slice(i));
      // A lone `&` or `|`: Vitest skips it, which hides a typo; say so instead.
      if (match === null) throw new Error(`unexpected "${char}" (use && or ||)`);
      tokens.push({ type: 'tag', value: match[0] });
      i += match[0].length;
    }
  }
  tokens.push({ type: 'end' });
  return tokens;
}

function show(token: Token): string {
  if (token.type === 'tag') return token.value;
  return token.type === 'end' ? 'end of expression' : token.type;
}

/** The tags an expression names, after checking its grammar; throws with the reason when it is malformed. */
function namedTags(expr: string): string[] {
  const tokens = tokenize(expr);
  const names: string[] = [];
  let at = 0;
  const peek = () => tokens[at] as Token;
  const or = (): void => {
    and();
    while (peek().type === '||') {
      at += 1;
      and();
    }
  };
  const and = (): void => {
    unary();
    while (peek().type === '&&') {
      at += 1;
      unary();
    }
  };
  const unary = (): void => {
    const token = peek();
    at += 1;
    if (token.type === '!') unary();
    else if (token.type === 'tag') names.push(token.value);
    else if (token.type === '(') {
      or();
      if (peek().type !== ')') throw new Error(`missing ")" before ${show(peek())}`);
      at += 1;
    } else throw new Error(`unexpected ${show(token)}`);
  };
  or();
  if (peek().type !== 'end') throw new Error(`unexpected ${show(peek())}`);
  return names;
}

function wildcard(pattern: string): RegExp {
  return new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
}

/** Why `expr` cannot filter cases that carry `known` tags, or undefined when it can. */
export function tagsFilterProblem(expr: string, known: readonly string[]): string | undefined {
  let names: string[];
  try {
    names = namedTags(expr);
  } catch (error) {
    return `--tags-filter ${JSON.stringify(expr)}: ${(error as Error).message}`;
  }
  for (const name of names) {
    const matches = name.includes('*') ? known.some((tag) => wildcard(name).test(tag)) : known.includes(name);
    if (matches) continue;
    const list = known.length > 0 ? `the suites' tags are ${known.join(', ')}` : 'the suites have no tags';
    const what = name.includes('*') ? `a tag matching "${name}"` : `the tag "${name}"`;
    return `--tags-filter ${JSON.stringify(expr)}: no case has ${what} (${list})`;
  }
  return undefined;
}
