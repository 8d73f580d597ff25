// The one place where text from a report becomes Markdown. Everything a report holds may come from
// an agent or a suite author (case ids, suite and agent names, models, errors, output), and Markdown
// ends up on GitHub: in a job summary, a pull-request comment, a README. So every such string goes
// through `escapeMarkdown` and shows as the text it is, on one line.

// CommonMark lets any ASCII punctuation be escaped with a backslash; these are the ones that start
// markup inside a line: code spans, emphasis, strikethrough, links and images, raw HTML and
// autolinks, entities, table cells; `\` first, so an escaped `\|` cannot become a bare pipe.
const INLINE_MARKUP = /[\\`*_[\]<>|~&#]/g;
// GFM's autolinks need no brackets: `http://…`, `www.…` and `a@b.c` become links, mentions ping.
// A backslash before the `:` of `://`, the `.` of `www.` and every `@` keeps them text.
const AUTOLINK_COLON = /(?<=[a-z0-9])(?=:\/\/)/gi;
const WWW_DOT = /(?<=\bwww)(?=\.)/gi;
const AT = /@/g;
// What opens a block when the text starts a line: a list item (`- x`, `+ x`, `1. x`, `1) x`), a
// heading underline or a thematic break (`===`, `---`); `#`, `>`, `*` and `_` are escaped everywhere
// already. A table cell holds no blocks, so only text that starts a line needs these.
const LEADING_MARKER = /^[-+=](?=[-+= ]|$)/;
const LEADING_NUMBER = /^(\d{1,9})(?=[.)]( |$))/;
// Line breaks of every kind (a Markdown line ends at CR too), other control characters, and the
// bidirectional controls that would show the text in another order than it is.
const BREAKS_AND_CONTROLS =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
  /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]+/g;

/**
 * `text` as inert Markdown on one line, for a table cell or the middle of a line: line breaks and
 * control characters become one space, and a backslash goes before everything that would end a
 * table cell (`|`) or start a code span, emphasis, a link, an image, raw HTML (`<script>`,
 * `</details>`), an entity or an autolink (`http://`, `www.`, `a@b`). GitHub then shows exactly the
 * characters of `text`.
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(BREAKS_AND_CONTROLS, ' ')
    .replace(/ {2,}/g, ' ')
    .trim()
    .replace(INLINE_MARKUP, '\\$&')
    .replace(AUTOLINK_COLON, '\\')
    .replace(WWW_DOT, '\\')
    .replace(AT, '\\@');
}

/** `escapeMarkdown` for text that starts a line: nor does it open a list, a heading or a thematic break. */
export function escapeMarkdownLine(text: string): string {
  return escapeMarkdown(text).replace(LEADING_MARKER, '\\$&').replace(LEADING_NUMBER, '$1\\');
}
