import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assertValidTemplate,
  DIR_ENV,
  PROMPT_ENV,
  PROMPT_FILE_ENV,
  renderCheckCommand,
  renderTemplate,
  TemplateError,
  templateUses,
  VERIFY_DIR_ENV,
} from './render-template.js';

const PROMPT_FILE = "/tmp/a case/$(x) `y` 'q'/prompt.txt";

/** Runs the rendered template in a real shell, with `AGENT` replaced by a node one-liner running `script`. */
function runRendered(template: string, script: string, env: Record<string, string>): string {
  const agent = `'${process.execPath}' -e '${script}' --`;
  const command = renderTemplate(template.replaceAll('AGENT', agent));
  return execFileSync('/bin/sh', ['-c', command], { env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8' });
}

// The "agent" prints its argv as JSON.
function argvOf(template: string, prompt: string, dir = '/tmp/work space', promptFile = PROMPT_FILE): string[] {
  const stdout = runRendered(template, 'process.stdout.write(JSON.stringify(process.argv.slice(1)))', {
    [PROMPT_ENV]: prompt,
    [DIR_ENV]: dir,
    [PROMPT_FILE_ENV]: promptFile,
  });
  return JSON.parse(stdout) as string[];
}

const HOSTILE_PROMPTS = [
  'plain words',
  `it's "quoted" both 'ways'`,
  '$(touch pwned) and `touch pwned2`; rm -rf / && echo $HOME',
  'line one\nline two\n\n',
  'ends with a backslash \\',
  'bang! star * ? [a-z] ~ # {a,b} %s',
  "'\"'\"'",
  '{{prompt}} {{dir}}',
  ' leading and trailing spaces ',
  '--flag-looking',
  'tab\there, unicode ✓ and \u2028 separators',
];

describe('renderTemplate', () => {
  describe.each([
    ['bare', 'AGENT {{prompt}}'],
    ['double-quoted', 'AGENT "{{prompt}}"'],
    ['single-quoted', "AGENT '{{prompt}}'"],
  ])('with a %s placeholder', (_, template) => {
    it.each(HOSTILE_PROMPTS)('passes %j as exactly one argument', (prompt) => {
      expect(argvOf(template, prompt)).toEqual([prompt]);
    });
  });

  it('replaces every occurrence', () => {
    expect(argvOf('AGENT {{prompt}} "{{prompt}}" \'{{prompt}}\'', 'a b')).toEqual(['a b', 'a b', 'a b']);
  });

  it('keeps text around a placeholder inside quotes', () => {
    expect(argvOf('AGENT "task: {{prompt}}!" --prompt={{prompt}}', 'x y')).toEqual(['task: x y!', '--prompt=x y']);
    expect(argvOf("AGENT 'in {{dir}}: {{prompt}}'", 'p q', '/w s')).toEqual(['in /w s: p q']);
  });

  it('passes the workspace path for {{dir}}', () => {
    expect(argvOf('AGENT --workdir {{dir}} "{{prompt}}"', 'p', '/tmp/a b/$(x)')).toEqual([
      '--workdir',
      '/tmp/a b/$(x)',
      'p',
    ]);
  });

  it('tracks quotes, so a quote escaped by a backslash does not open a quoted span', () => {
    expect(argvOf(`AGENT \\' {{prompt}} "\\" {{prompt}}"`, 'p q')).toEqual(["'", 'p q', '" p q']);
  });

  describe.each([
    ['bare', '{{prompt}}'],
    ['double-quoted', '"{{prompt}}"'],
    ['single-quoted', "'{{prompt}}'"],
  ])('with a %s placeholder inside a command substitution', (_, placeholder) => {
    it.each([
      ['"$(…)"', `AGENT "$(printf '%s' ${placeholder})"`],
      ['$(…)', `AGENT "$(printf '%s' ${placeholder})"`],
      ['nested $( $(…) )', `AGENT "$(printf '%s' "$(printf '%s' ${placeholder})")"`],
      ['backticks', `AGENT "\`printf '%s' ${placeholder}\`"`],
      ['parentheses inside $(…)', `AGENT "$( (printf '%s' ${placeholder}) )"`],
    ])('in %s', (_, template) => {
      // Command substitution strips trailing newlines, so the prompt here has none.
      const prompt = `two  spaces * star 'q' "d" $(x) \\`;
      expect(argvOf(template, prompt)).toEqual([prompt]);
    });
  });

  it('returns to the outer quoting after a command substitution', () => {
    expect(argvOf(`AGENT "$(echo a) {{prompt}}" '{{prompt}}' {{prompt}}`, 'p q')).toEqual(['a p q', 'p q', 'p q']);
  });

  it('never puts the values themselves into the command line', () => {
    const command = renderTemplate('agent "{{prompt}}" {{dir}} < {{promptFile}}');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the expected text is shell syntax, not a JS template.
    expect(command).toBe('agent "${GZ_BENCH_PROMPT}" "${GZ_BENCH_DIR}" < "${GZ_BENCH_PROMPT_FILE}"');
  });
});

describe('{{promptFile}}', () => {
  it.each([
    ['bare', 'AGENT {{promptFile}}'],
    ['double-quoted', 'AGENT "{{promptFile}}"'],
    ['single-quoted', "AGENT '{{promptFile}}'"],
    ['inside "$(…)"', `AGENT "$(printf '%s' {{promptFile}})"`],
    ['inside backticks', `AGENT "\`printf '%s' '{{promptFile}}'\`"`],
  ])('passes the path as exactly one argument when %s, like {{dir}}', (_, template) => {
    expect(argvOf(template, 'p')).toEqual([PROMPT_FILE]);
  });

  it('is told apart from {{prompt}} beside it', () => {
    expect(argvOf('AGENT {{prompt}} {{promptFile}} "{{prompt}}{{promptFile}}"', 'p q')).toEqual([
      'p q',
      PROMPT_FILE,
      `p q${PROMPT_FILE}`,
    ]);
  });

  describe('as stdin', () => {
    let dir: string;
    const prompt = "line one\n$(touch pwned) 'quoted' ✓\n";
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'gz-bench template $(x) '));
      await writeFile(join(dir, 'prompt.txt'), prompt);
    });
    afterAll(() => rm(dir, { recursive: true, force: true }));

    it.each([
      ['< {{promptFile}}', 'AGENT < {{promptFile}}'],
      ['<"{{promptFile}}"', 'AGENT <"{{promptFile}}"'],
      ["< '{{promptFile}}'", "AGENT < '{{promptFile}}'"],
      ['cat {{promptFile}} |', 'cat {{promptFile}} | AGENT'],
    ])('%s gives the agent the file on stdin, whatever its path', (_, template) => {
      const stdout = runRendered(template, 'process.stdout.write(require("fs").readFileSync(0))', {
        [PROMPT_FILE_ENV]: join(dir, 'prompt.txt'),
      });
      expect(stdout).toBe(prompt);
    });
  });
});

describe('templateUses', () => {
  it('finds each placeholder, and never takes {{promptFile}} for {{prompt}}', () => {
    expect(templateUses('agent < {{promptFile}}', 'prompt')).toBe(false);
    expect(templateUses('agent < {{promptFile}}', 'promptFile')).toBe(true);
    expect(templateUses('agent "{{prompt}}" < {{promptFile}}', 'prompt')).toBe(true);
    expect(templateUses('agent --workdir {{dir}}', 'dir')).toBe(true);
    expect(templateUses('echo done', 'prompt')).toBe(false);
  });
});

describe('assertValidTemplate', () => {
  it('accepts the known placeholders and templates without any', () => {
    expect(() => assertValidTemplate('agent {{dir}} "{{prompt}}"')).not.toThrow();
    expect(() => assertValidTemplate('agent --workdir {{dir}} < {{promptFile}}')).not.toThrow();
    expect(() => assertValidTemplate('echo done')).not.toThrow();
  });

  it.each([
    [
      'agent {{promt}}',
      'unknown placeholder {{promt}} in the command template; use {{prompt}}, {{promptFile}} or {{dir}}',
    ],
    [
      'agent {{ prompt }}',
      'unknown placeholder {{ prompt }} in the command template; use {{prompt}}, {{promptFile}} or {{dir}}',
    ],
    [
      'agent < {{promptfile}}',
      'unknown placeholder {{promptfile}} in the command template; use {{prompt}}, {{promptFile}} or {{dir}}',
    ],
    [
      'agent {{constructor}}',
      'unknown placeholder {{constructor}} in the command template; use {{prompt}}, {{promptFile}} or {{dir}}',
    ],
    ['   ', 'the command template is empty'],
  ])('rejects %j', (template, message) => {
    expect(() => assertValidTemplate(template)).toThrow(new TemplateError(message));
  });
});

describe('renderCheckCommand', () => {
  it('makes {{verify}} a quoted reference wherever it stands, and leaves any other {{…}} as written', async () => {
    const verify = "/tmp/a dir/it's $(touch pwned)";
    const run = `printf '%s|' {{verify}}/x "{{verify}}" '{{verify}}' "$(echo {{verify}})" {{dir}} {{other}}`;
    const stdout = execFileSync('/bin/sh', ['-c', renderCheckCommand(run)], {
      env: { ...process.env, [VERIFY_DIR_ENV]: verify },
      encoding: 'utf8',
    });
    expect(stdout).toBe(`${verify}/x|${verify}|${verify}|${verify}|{{dir}}|{{other}}|`);
  });
});
