import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PUZZLE_KINDS } from '../../src/core/puzzle-kinds.ts';

// Everything a puzzle kind knows lives in its folder src/puzzles/<kind>/; every other layer asks the
// kind's Puzzle (through the registry) instead of switching on the kind's name. This test keeps it so: a
// kind name written as a string literal anywhere else in src/ fails it.
//
// One file may name the kinds: src/core/puzzle-kinds.ts. It holds PUZZLE_KINDS, which the protocol schema
// and the CLI derive from and which must sit in core (core imports nothing of the project), and the JSON
// shape of each kind's state: the public types of the protocol that the SDK hands to bots in `solve`, whose
// `kind` field is the name itself.

const ROOT = join(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');
const ALLOWED = new Set(['src/core/puzzle-kinds.ts']);

/**
 * A kind name alone in quotes of any style: 'sliding', "hanoi", `swaps`. Class names in examples
 * ("sliding 4x4") are prose about a kind, not a switch on it, and pass.
 */
const LITERAL = new RegExp(`(['"\`])(${PUZZLE_KINDS.join('|')})\\1`);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return path === join(SRC, 'puzzles') ? [] : sourceFiles(path);
    return /\.(ts|mts|cts|js|mjs|cjs|json)$/.test(e.name) ? [path] : [];
  });
}

/** `file:line: text` for every kind literal in `text`. */
export function kindLiterals(file: string, text: string): string[] {
  return text.split('\n').flatMap((line, i) => (LITERAL.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
}

describe('kind literals - no layer outside src/puzzles names a puzzle kind', () => {
  it('kindLiterals - catches a kind name in every quote style and in class names, not in words or paths', () => {
    const caught = [`x === 'sliding'`, `case "hanoi":`, 'kind: `swaps`', `{ kind: 'warehouse', size: 9 }`];
    for (const line of caught) expect(kindLiterals('f', line), line).toHaveLength(1);
    const passed = [`import { x } from '../puzzles/sliding/index.ts';`, `'sliding-table'`, `'a sliding board'`, `slidingKind`, `'swapsX'`, `e.g. "sliding 4x4"`];
    for (const line of passed) expect(kindLiterals('f', line), line).toEqual([]);
  });

  it('src - kind names appear as literals only in src/puzzles and src/core/puzzle-kinds.ts', () => {
    const files = sourceFiles(SRC).map((f) => relative(ROOT, f).split('\\').join('/'));
    expect(files.length).toBeGreaterThan(30);
    expect(files).toContain('src/core/puzzle-kinds.ts');
    const hits = files.filter((f) => !ALLOWED.has(f)).flatMap((f) => kindLiterals(f, readFileSync(join(ROOT, f), 'utf8')));
    expect(hits, 'ask the kind\'s Puzzle (src/puzzles) instead of naming the kind').toEqual([]);
    // The allowed file does name them: the exemption is needed, not a leftover.
    expect(kindLiterals('src/core/puzzle-kinds.ts', readFileSync(join(SRC, 'core/puzzle-kinds.ts'), 'utf8')).length).toBeGreaterThan(0);
  });
});
