/** Environment variable that carries the case prompt to the agent command. */
export const PROMPT_ENV = 'GZ_BENCH_PROMPT';
/** Environment variable that carries the absolute workspace path to the agent command. */
export const DIR_ENV = 'GZ_BENCH_DIR';

const PLACEHOLDERS: Record<string, string> = { prompt: PROMPT_ENV, dir: DIR_ENV };
const PLACEHOLDER = /\{\{\s*([A-Za-z_][\w-]*)\s*\}\}/g;

/** Raised for a command template that names a placeholder gz-bench does not know. */
export class TemplateError extends Error {
  readonly code = 'GZ_BENCH_INVALID_TEMPLATE';
  override name = 'TemplateError';
}

/** Throws a TemplateError unless every `{{…}}` in the template is `{{prompt}}` or `{{dir}}`. */
export function assertValidTemplate(template: string): void {
  if (template.trim() === '') throw new TemplateError('the command template is empty');
  for (const [token, name = ''] of template.matchAll(PLACEHOLDER)) {
    if (token !== `{{${name}}}` || !Object.hasOwn(PLACEHOLDERS, name)) {
      throw new TemplateError(`unknown placeholder ${token} in the command template; use {{prompt}} or {{dir}}`);
    }
  }
}

type Quoting = 'none' | 'single' | 'double';

/**
 * Turns a command template into a shell command line in which `{{prompt}}` and `{{dir}}` are
 * references to environment variables, never the values themselves.
 *
 * The values reach the shell through `PROMPT_ENV` and `DIR_ENV`, so nothing in a prompt is ever
 * parsed as shell syntax. Each reference is written for the quoting it stands in, so that
 * `{{prompt}}`, `"{{prompt}}"` and `'{{prompt}}'` all pass the prompt as exactly one argument.
 */
export function renderTemplate(template: string): string {
  assertValidTemplate(template);
  let out = '';
  let quoting: Quoting = 'none';
  for (let i = 0; i < template.length; ) {
    const placeholder = placeholderAt(template, i);
    if (placeholder) {
      out += reference(placeholder.variable, quoting);
      i += placeholder.length;
      continue;
    }
    const char = template[i] as string;
    if (quoting === 'single') {
      if (char === "'") quoting = 'none';
    } else if (char === '\\') {
      // A backslash keeps the next character literal (inside double quotes only some, but consuming it
      // is enough to know it cannot close the quotes).
      out += template.slice(i, i + 2);
      i += 2;
      continue;
    } else if (quoting === 'double') {
      if (char === '"') quoting = 'none';
    } else if (char === "'") {
      quoting = 'single';
    } else if (char === '"') {
      quoting = 'double';
    }
    out += char;
    i += 1;
  }
  return out;
}

function placeholderAt(template: string, index: number): { variable: string; length: number } | undefined {
  if (!template.startsWith('{{', index)) return undefined;
  for (const [name, variable] of Object.entries(PLACEHOLDERS)) {
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
