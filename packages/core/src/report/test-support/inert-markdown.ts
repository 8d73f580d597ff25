import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';

// Markdown as GitHub renders it (GFM: tables, autolinks, strikethrough), with every raw HTML tag and
// link protocol let through: stricter than GitHub, whose sanitizer drops some after the fact, so a
// renderer passes only when its escaping alone keeps hostile text inert.

/** The HTML of `markdown`, raw HTML and any protocol allowed. */
export function markdownHtml(markdown: string): string {
  return micromark(markdown, {
    allowDangerousHtml: true,
    allowDangerousProtocol: true,
    extensions: [gfm()],
    htmlExtensions: [gfmHtml()],
  });
}

/** The elements gz-bench's own Markdown makes: headings, paragraphs, lists, tables, emphasis, code. */
const OWN_TAGS = new Set(['h2', 'h3', 'p', 'ul', 'li', 'strong', 'code', 'table', 'thead', 'tbody', 'tr', 'th', 'td']);

/** Every tag of `html` that gz-bench's Markdown never makes itself, and any attribute but a cell's alignment. */
export function markupProblems(html: string): string[] {
  const problems: string[] = [];
  for (const match of html.matchAll(/<\/?([a-zA-Z][\w-]*)([^>]*)>|<!--|<!\[CDATA\[|<\?/g)) {
    const [tag, name, attributes] = match;
    if (name === undefined) problems.push(`raw ${tag}`);
    else if (!OWN_TAGS.has(name.toLowerCase())) problems.push(`element ${tag}`);
    else if (attributes?.trim() && !/^\s*align="(left|right|center)"\s*$/.test(attributes))
      problems.push(`attribute ${tag}`);
  }
  return problems;
}

/** The text of an HTML fragment as a reader sees it: tags gone, entities decoded, spaces collapsed. */
export function htmlText(html: string): string {
  return decodeEntities(html.replace(/<[^>]*>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
}

/** The text of each table cell (`<th>`, `<td>`) of `html`, in order. */
export function cellTexts(html: string): string[] {
  return [...html.matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((match) => htmlText(match[1] ?? ''));
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|lt|gt|amp|quot|apos);/gi, (_, entity: string) => {
    const lower = entity.toLowerCase();
    if (lower.startsWith('#x')) return String.fromCodePoint(Number.parseInt(lower.slice(2), 16));
    if (lower.startsWith('#')) return String.fromCodePoint(Number.parseInt(lower.slice(1), 10));
    return { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }[lower] ?? '';
  });
}
