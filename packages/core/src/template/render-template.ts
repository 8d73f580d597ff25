/** Environment variable that carries the case prompt to the agent command. */
export const PROMPT_ENV = 'GZ_BENCH_PROMPT';
/** Environment variable that carries the absolute path of the file holding the case prompt. */
export const PROMPT_FILE_ENV = 'GZ_BENCH_PROMPT_FILE';
/** Environment variable that carries the absolute workspace path to the agent command. */
export const DIR_ENV = 'GZ_BENCH_DIR';
/** Environment variable that carries the absolute path of the case's hidden verifiers to command checks. */
export const VERIFY_DIR_ENV = 'GZ_BENCH_VERIFY_DIR';

/** A placeholder of the command template: `{{prompt}}`, `{{promptFile}}` or `{{dir}}`. */
export type Placeholder = 'prompt' | 'promptFile' | 'dir';

const PLACEHOLDERS: Record<Placeholder, string> = { prompt: PROMPT_ENV, promptFile: PROMPT_FILE_ENV, dir: DIR_ENV };
// A command check's `run` knows `{{verify}}` alone; any other `{{…}}` in it stays as written, as it always has.
const CHECK_PLACEHOLDERS: Record<string, string> = { verify: VERIFY_DIR_ENV };
const PLACEHOLDER = /\{\{\s*([A-Za-z_][\w-]*)\s*\}\}/g;

/** Raised for a command template that names a placeholder gz-bench does not know. */
export class TemplateError extends Error {
  readonly code = 'GZ_BENCH_INVALID_TEMPLATE';
  override name = 'TemplateError';
}

/** Throws a TemplateError unless every `{{…}}` in the template is `{{prompt}}`, `{{promptFile}}` or `{{dir}}`. */
export function assertValidTemplate(template: string): void {
  if (template.trim() === '') throw new TemplateError('the command template is empty');
  for (const [token, name = ''] of template.matchAll(PLACEHOLDER)) {
    if (token !== `{{${name}}}` || !Object.hasOwn(PLACEHOLDERS, name)) {
      throw new TemplateError(
        `unknown placeholder ${token} in the command template; use {{prompt}}, {{promptFile}} or {{dir}}`,
      );
    }
  }
}

/** Whether the template names the placeholder (`{{prompt}}` needs the prompt in an environment variable). */
export function templateUses(template: string, placeholder: Placeholder): boolean {
  return template.includes(`{{${placeholder}}}`);
}

type Quoting = 'none' | 'single' | 'double';

/** A quoting context: the top level, or a command substitution (`$(…)`, backticks) that starts a fresh one. */
interface Context {
  quoting: Quoting;
  kind: 'top' | 'parens' | 'backticks';
  /** Unmatched `(` inside a `$(…)` context, so only its own `)` closes it. */
  depth: number;
}

/**
 * Turns a command template into a shell command line in which `{{prompt}}`, `{{promptFile}}` and
 * `{{dir}}` are references to environment variables, never the values themselves.
 *
 * The values reach the shell through `PROMPT_ENV`, `PROMPT_FILE_ENV` and `DIR_ENV`, so nothing in a
 * prompt or a path is ever parsed as shell syntax. Each reference is written for the quoting it
 * stands in — bare, double or single quotes, also inside `$(…)` and backticks, which open quoting
 * contexts of their own — so that `{{prompt}}`, `"{{prompt}}"` and `'{{prompt}}'` all pass the prompt
 * as exactly one argument, and `< {{promptFile}}` redirects from the prompt file whatever its path.
 */
export function renderTemplate(template: string): string {
  assertValidTemplate(template);
  return renderPlaceholders(template, PLACEHOLDERS);
}

/**
 * A command check's `run` as a shell command line in which `{{verify}}` is a reference to
 * `VERIFY_DIR_ENV`, quoted for where it stands like the placeholders of `renderTemplate`.
 */
export function renderCheckCommand(run: string): string {
  return renderPlaceholders(run, CHECK_PLACEHOLDERS);
}

function renderPlaceholders(template: string, placeholders: Record<string, string>): string {
  let out = '';
  const stack: Context[] = [{ quoting: 'none', kind: 'top', depth: 0 }];
  for (let i = 0; i < template.length; ) {
    const context = stack[stack.length - 1] as Context;
    const placeholder = placeholderAt(template, i, placeholders);
    if (placeholder) {
      out += reference(placeholder.variable, context.quoting);
      i += placeholder.length;
      continue;
    }
    if (context.quoting === 'single') {
      // Nothing is special inside single quotes but the quote that ends them.
      if (template[i] === "'") context.quoting = 'none';
      out += template[i];
      i += 1;
      continue;
    }
    const consumed = step(template, i, context, stack);
    out += template.slice(i, i + consumed);
    i += consumed;
  }
  return out;
}

/** Updates the quoting contexts for the text at `index` (outside single quotes) and returns how many characters it spans. */
function step(template: string, index: number, context: Context, stack: Context[]): number {
  const char = template[index];
  // A backslash keeps the next character literal (inside double quotes only some, but consuming it
  // is enough to know it cannot open or close anything).
  if (char === '\\') return 2;
  if (char === '$' && template[index + 1] === '(') {
    stack.push({ quoting: 'none', kind: 'parens', depth: 0 });
    return 2;
  }
  if (char === '`') {
    if (context.kind === 'backticks' && context.quoting === 'none') stack.pop();
    else stack.push({ quoting: 'none', kind: 'backticks', depth: 0 });
    return 1;
  }
  if (context.quoting === 'double') {
    if (char === '"') context.quoting = 'none';
    return 1;
  }
  if (char === "'") context.quoting = 'single';
  else if (char === '"') context.quoting = 'double';
  else if (context.kind === 'parens' && char === '(') context.depth++;
  else if (context.kind === 'parens' && char === ')') {
    if (context.depth === 0) stack.pop();
    else context.depth--;
  }
  return 1;
}

function placeholderAt(
  template: string,
  index: number,
  placeholders: Record<string, string>,
): { variable: string; length: number } | undefined {
  if (!template.startsWith('{{', index)) return undefined;
  for (const [name, variable] of Object.entries(placeholders)) {
    const token = `{{${name}}}`;
    if (template.startsWith(token, index)) return { variable, length: token.length };
  }
  return undefined;
}

function reference(variable: string, quoting: Quoting): string {
  switch (quoting) {
    case 'none':
      return `"\${${variable}}"`;
    case 'double':
      return `\${${variable}}`;
    case 'single':
      // Close the single quotes, expand inside double quotes, and reopen them.
      return `'"\${${variable}}"'`;
  }
}
