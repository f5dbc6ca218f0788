import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// ARCHITECTURE.md's layers table and the layers test's LAYERS must say the same thing: each is read here
// as a map "layer -> what it may import (and, types only)", and the two maps are compared.

const ROOT = resolve(import.meta.dirname, '../..');

type Rules = Record<string, { may: string[]; typesMay: string[] }>;

const list = (text: string | undefined): string[] =>
  (text ?? '')
    .split(',')
    .map((w) => w.trim().replace(/^'|'$/g, ''))
    .filter((w) => w !== '' && w !== '—')
    .sort();

/** The rows between the layers-table markers of ARCHITECTURE.md. */
export function docRules(markdown: string): Rules {
  const start = markdown.indexOf('<!-- layers-table');
  const end = markdown.indexOf('<!-- /layers-table -->');
  if (start < 0 || end < start) return {};
  const out: Rules = {};
  for (const row of markdown.slice(start, end).split('\n')) {
    const m = /^\| `(\w+)` \|([^|]*)\|([^|]*)\|$/.exec(row.trim());
    if (m) out[m[1]!] = { may: list(m[2]), typesMay: list(m[3]) };
  }
  return out;
}

/** The LAYERS object literal of test/unit/layers.test.ts, one `name: { may: [...] }` line per layer. */
export function testRules(source: string): Rules {
  const body = /const LAYERS[^=]*= \{\n([\s\S]*?)\n\};/.exec(source)?.[1] ?? '';
  const out: Rules = {};
  for (const line of body.split('\n')) {
    const m = /^\s*(\w+): \{ may: \[([^\]]*)\](?:, typesMay: \[([^\]]*)\])? \},$/.exec(line);
    if (m) out[m[1]!] = { may: list(m[2]), typesMay: list(m[3]) };
  }
  return out;
}

describe('architecture doc', () => {
  it('architecture - the layers table of ARCHITECTURE.md is exactly the layers test\'s LAYERS', () => {
    const doc = docRules(readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8'));
    const test = testRules(readFileSync(join(ROOT, 'test/unit/layers.test.ts'), 'utf8'));
    expect(Object.keys(test).length, 'layers read from the test').toBeGreaterThanOrEqual(15);
    expect(doc).toEqual(test);
  });

  it('architecture - the comparison notices a layer allowed one import more in the document', () => {
    const source = "const LAYERS: X = {\n  core: { may: [] },\n  referee: { may: ['core'], typesMay: ['store'] },\n};";
    const same = '<!-- layers-table -->\n| `core` | — | |\n| `referee` | core | store |\n<!-- /layers-table -->';
    expect(docRules(same)).toEqual(testRules(source));
    expect(docRules(same.replace('| core | store |', '| core, app | store |'))).not.toEqual(testRules(source));
  });
});
