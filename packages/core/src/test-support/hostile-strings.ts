// Text an agent or a suite author may write into anything gz-bench shows: case ids, suite and agent
// names, file names, errors, output, diffs, trajectories. Every renderer (Markdown, HTML) is tested
// with each of these in each field it shows: none may turn into markup, a link, a new table cell or
// row, or leave the element it was put in.

/** Hostile strings, one per way of breaking out; each is also plain enough to find again as text. */
export const HOSTILE_STRINGS: readonly string[] = [
  '<script>alert(1)</script>',
  '</script><script>alert(2)</script>',
  '<img src=x onerror=alert(3)>',
  '</details></summary><details open><summary>forged',
  '"><svg onload=alert(4)>',
  "' onmouseover='alert(5)' x='",
  '</textarea></style></title><b>out</b>',
  '<!-- unclosed comment',
  '<![CDATA[ x ]]>',
  '[click](javascript:alert(6))',
  '![pixel](http://evil.example/pixel.png)',
  '[ref]: http://evil.example/ref',
  '<javascript:alert(7)>',
  '<http://evil.example/auto>',
  'javascript:alert(8)',
  'see https://evil.example/x and www.evil.example or mail@evil.example',
  'a | b | c',
  'one\ntwo\r\n| forged | row |',
  'next\u2028line\u2029para\u0085nel\u000bvt\u000cff',
  '`code` ``fence`` ```',
  '**bold** __strong__ _em_ *em* ~~strike~~',
  '# heading',
  '> quote',
  '- item',
  '1. item',
  '---',
  '&lt;script&gt; &#x3C;b&#x3E; &amp;',
  '\\| escaped pipe \\',
  '\\`not code\\`',
  'nul\u0000bell\u0007esc\u001b[31mred',
  '\u202eevil\u202c txt',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template the text must not become.
  '{{prompt}} ${process.env.X} __proto__',
  '@maintainers #1 :+1:',
];

/**
 * What a person should see of `text` in a one-line rendering: every line break and control
 * character as one space, runs of spaces as one, trimmed.
 */
export function visibleText(text: string): string {
  return (
    text
      // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
      .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
  );
}
