/**
 * Reading the project's markdown the way GitHub renders it, for the tests that hold the docs to the code:
 * heading anchors (GitHub's slugs), relative links, and the fenced code blocks under a heading.
 */

/** A fenced code block: its language tag and its text (without the fences). */
export interface CodeBlock {
  readonly lang: string;
  readonly code: string;
}

const FENCE = /^```(\w*)\n([\s\S]*?)^```$/gm;

/** The text with every fenced code block blanked out (lines kept, so nothing in code counts as markdown). */
function withoutFences(markdown: string): string {
  return markdown.replace(FENCE, (block) => block.replace(/[^\n]/g, ''));
}

/** The heading's text as GitHub renders it: inline code, links and emphasis reduced to their text. */
function headingText(raw: string): string {
  return raw
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/\*\*?([^*]+)\*\*?/g, '$1')
    .trim();
}

/**
 * GitHub's anchor for a heading (github-slugger's rule): lower case; every character that is not a letter,
 * a mark, a number, a connector (`_`), a space or `-` dropped; each space a `-`.
 */
export function slug(heading: string): string {
  return headingText(heading)
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a file offers: its headings' slugs, a repeated one suffixed -1, -2, … as GitHub does. */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of withoutFences(markdown).matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Every link target of the file outside code (fenced blocks and inline code spans), with its line. */
export function links(markdown: string): Array<{ target: string; line: number }> {
  const out: Array<{ target: string; line: number }> = [];
  withoutFences(markdown)
    .split('\n')
    .forEach((text, i) => {
      for (const m of text.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)(?: "[^"]*")?\)/g)) out.push({ target: m[1]!, line: i + 1 });
    });
  return out;
}

/**
 * The fenced code blocks between the heading `heading` (or one that continues it after a space, as
 * "A first bot" names "A first bot (Python)") and the next heading of its level or above.
 */
export function blocksUnder(markdown: string, heading: string): CodeBlock[] {
  const lines = markdown.split('\n');
  const masked = withoutFences(markdown).split('\n');
  const named = (l: string) => {
    const text = l.replace(/^#+ +/, '');
    return text === heading || text.startsWith(`${heading} `);
  };
  const start = masked.findIndex((l) => /^#{1,6} /.test(l) && named(l));
  if (start < 0) return [];
  const level = /^#+/.exec(masked[start]!)![0].length;
  let end = masked.findIndex((l, i) => i > start && /^#{1,6} /.test(l) && /^#+/.exec(l)![0].length <= level);
  if (end < 0) end = lines.length;
  const section = lines.slice(start, end).join('\n');
  return [...section.matchAll(FENCE)].map((m) => ({ lang: m[1]!, code: m[2]! }));
}
