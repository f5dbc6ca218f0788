import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchors, links, slug } from '../helpers/markdown.ts';

// Every relative link of the project's documentation must lead somewhere: the file exists, and an #anchor
// names a heading of the file it points into, spelled as GitHub makes heading anchors.

const ROOT = resolve(import.meta.dirname, '../..');

/** The documentation: README, PROTOCOL, ARCHITECTURE and every page of docs/. */
function docFiles(): string[] {
  const docs = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join(ROOT, 'docs', f));
  return [join(ROOT, 'README.md'), join(ROOT, 'PROTOCOL.md'), join(ROOT, 'ARCHITECTURE.md'), ...docs];
}

/** Every broken relative link of one markdown file, as "file:line: target: why". */
export function brokenLinks(file: string, markdown: string, read: (path: string) => string | undefined): string[] {
  const out: string[] = [];
  for (const { target, line } of links(markdown)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:: not ours to check
    const [path, anchor] = target.split('#', 2) as [string, string | undefined];
    const into = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
    const at = `${relative(ROOT, file)}:${line}: ${target}`;
    const text = read(into);
    if (text === undefined) {
      out.push(`${at}: no such file`);
    } else if (anchor !== undefined && into.endsWith('.md') && !anchors(text).has(anchor)) {
      out.push(`${at}: no heading with this anchor in ${relative(ROOT, into)}`);
    }
  }
  return out;
}

const readReal = (path: string): string | undefined => {
  if (!existsSync(path)) return undefined;
  return path.endsWith('.md') ? readFileSync(path, 'utf8') : '';
};

describe('doc links', () => {
  it('doc-links - every relative link and anchor in README, PROTOCOL, ARCHITECTURE and docs/ resolves', () => {
    const files = docFiles();
    expect(files.length).toBeGreaterThanOrEqual(10);
    const all = files.flatMap((f) => brokenLinks(f, readFileSync(f, 'utf8'), readReal));
    expect(all).toEqual([]);
    expect(files.reduce((n, f) => n + links(readFileSync(f, 'utf8')).length, 0)).toBeGreaterThan(40);
  });

  it('doc-links - headings get GitHub\'s anchors', () => {
    expect(slug('Warm-up (prepare / ready, optional)')).toBe('warm-up-prepare--ready-optional');
    expect(slug('Limits: what a bot may not do')).toBe('limits-what-a-bot-may-not-do');
    expect(slug('`sliding` — sliding tiles (8-puzzle, 15-puzzle, any R×C)')).toBe('sliding--sliding-tiles-8-puzzle-15-puzzle-any-rc');
    expect(slug('A fast `arena` on your PATH')).toBe('a-fast-arena-on-your-path');
    expect(slug('A first bot in five minutes (Python)')).toBe('a-first-bot-in-five-minutes-python');
    expect(slug('src/app by room')).toBe('srcapp-by-room');
    expect([...anchors('# A\n## B\n```sh\n# not a heading\n```\n## B\n')]).toEqual(['a', 'b', 'b-1']);
  });

  it('doc-links - the checker reports a missing file, a missing anchor, and skips code and web addresses', () => {
    const file = join(ROOT, 'docs', 'x.md');
    const pages: Record<string, string> = { [join(ROOT, 'docs', 'y.md')]: '# Y\n## Has it\n', [file]: '' };
    const read = (p: string) => pages[p];
    const md = [
      '[ok](y.md#has-it) [self](#top) [gone](z.md) [bad](y.md#nope)',
      '`[in code](nowhere.md)` [web](https://example.com/a#b)',
      '```sh',
      '[in a block](nowhere.md)',
      '```',
      '# Top',
    ].join('\n');
    expect(brokenLinks(file, md, (p) => (p === file ? md : read(p)))).toEqual([
      'docs/x.md:1: z.md: no such file',
      'docs/x.md:1: y.md#nope: no heading with this anchor in docs/y.md',
    ]);
  });
});
