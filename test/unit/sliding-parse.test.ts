import { describe, expect, it } from 'vitest';
import { sliding } from '../../src/puzzles/sliding/index.ts';
import type { Rejection, ScrambleSpec } from '../../src/core/types.ts';

function parseError(json: unknown): Rejection {
  const r = sliding.parse(json);
  if (r.ok) throw new Error(`expected a rejection for ${JSON.stringify(json)}`);
  return r;
}

const goal3 = [1, 2, 3, 4, 5, 6, 7, 8, 0];

describe('sliding.parse', () => {
  it('accepts the goal and returns a fresh canonical object without extra fields', () => {
    const r = sliding.parse({ kind: 'sliding', rows: 3, cols: 3, tiles: goal3, extra: 1 });
    expect(r.ok).toBe(true);
    if (r.ok) expect(JSON.stringify(r.value)).toBe('{"kind":"sliding","rows":3,"cols":3,"tiles":[1,2,3,4,5,6,7,8,0]}');
  });

  it('accepts rectangular boards in both orientations', () => {
    expect(sliding.parse({ kind: 'sliding', rows: 2, cols: 3, tiles: [1, 2, 3, 4, 5, 0] }).ok).toBe(true);
    expect(sliding.parse({ kind: 'sliding', rows: 3, cols: 2, tiles: [1, 2, 3, 4, 0, 5] }).ok).toBe(true);
  });

  it('rejects a non-object', () => {
    for (const v of [null, 3, 'x', [1, 2]]) expect(parseError(v).reason).toMatch(/must be a JSON object/);
  });

  it('rejects the wrong kind', () => {
    expect(parseError({ kind: 'hanoi', rows: 3, cols: 3, tiles: goal3 }).reason).toBe('expected kind "sliding", got "hanoi"');
    expect(parseError({ rows: 3, cols: 3, tiles: goal3 }).reason).toMatch(/expected kind "sliding"/);
  });

  it('rejects rows/cols that are not integers in 2..1000', () => {
    expect(parseError({ kind: 'sliding', rows: 1, cols: 3, tiles: [1, 2, 0] }).reason).toBe(
      'rows must be an integer from 2 to 1000, got 1',
    );
    expect(parseError({ kind: 'sliding', rows: 3, cols: 1001, tiles: [] }).reason).toMatch(/^cols must be an integer from 2 to 1000, got 1001/);
    expect(parseError({ kind: 'sliding', rows: 2.5, cols: 3, tiles: [] }).reason).toMatch(/^rows .* got 2\.5/);
    expect(parseError({ kind: 'sliding', rows: '3', cols: 3, tiles: [] }).reason).toMatch(/^rows .* got "3"/);
    expect(parseError({ kind: 'sliding', rows: 3, tiles: [] }).reason).toMatch(/^cols .*/);
  });

  it('rejects tiles that are not an array', () => {
    expect(parseError({ kind: 'sliding', rows: 3, cols: 3, tiles: '123' }).reason).toBe('tiles must be an array of 9 integers');
  });

  it('rejects the wrong number of tiles', () => {
    const tiles = Array.from({ length: 15 }, (_, i) => i);
    expect(parseError({ kind: 'sliding', rows: 4, cols: 4, tiles }).reason).toBe('expected 16 tiles for 4x4, got 15');
  });

  it('rejects non-integer tiles', () => {
    expect(parseError({ kind: 'sliding', rows: 3, cols: 3, tiles: [1, 2, 3.5, 4, 5, 6, 7, 8, 0] }).reason).toBe(
      'tile at index 2 is not an integer: 3.5',
    );
    expect(parseError({ kind: 'sliding', rows: 3, cols: 3, tiles: [1, 2, '3', 4, 5, 6, 7, 8, 0] }).reason).toMatch(/index 2 is not an integer: "3"/);
  });

  it('rejects out-of-range tiles', () => {
    expect(parseError({ kind: 'sliding', rows: 3, cols: 3, tiles: [1, 2, 3, 4, 5, 6, 7, 9, 0] }).reason).toBe(
      'tile at index 7 is out of range: 9 (expected 0..8, 0 = blank)',
    );
    expect(parseError({ kind: 'sliding', rows: 3, cols: 3, tiles: [-1, 2, 3, 4, 5, 6, 7, 8, 0] }).reason).toMatch(/out of range: -1/);
  });

  it('rejects a duplicate tile and names the missing one', () => {
    const r = parseError({ kind: 'sliding', rows: 3, cols: 3, tiles: [1, 2, 3, 4, 5, 6, 7, 7, 0] });
    expect(r.reason).toBe('duplicate: tile 7 appears at indexes 6 and 7; tile 8 is missing');
  });

  it('reports a missing blank', () => {
    const r = parseError({ kind: 'sliding', rows: 2, cols: 2, tiles: [1, 2, 3, 3] });
    expect(r.reason).toMatch(/the blank \(0\) is missing/);
  });

  it('rejects unsolvable arrangements for odd and even widths', () => {
    const odd = parseError({ kind: 'sliding', rows: 3, cols: 3, tiles: [2, 1, 3, 4, 5, 6, 7, 8, 0] });
    expect(odd.code).toBe('unsolvable');
    expect(odd.reason).toMatch(/^unsolvable: .*odd permutation.*odd width \(3\)/);
    const even = parseError({ kind: 'sliding', rows: 4, cols: 4, tiles: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 14, 0] });
    expect(even.reason).toMatch(/^unsolvable: .*0 rows above the bottom; with an even width \(4\)/);
    // With the blank 3 rows up, one inversion (15-14) makes it solvable and none makes it unsolvable.
    expect(
      sliding.parse({ kind: 'sliding', rows: 4, cols: 4, tiles: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 14] }).ok,
    ).toBe(true);
    expect(
      sliding.parse({ kind: 'sliding', rows: 4, cols: 4, tiles: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] }).ok,
    ).toBe(false);
  });

  it('parses a 1000x1000 goal', () => {
    const n = 1_000_000;
    const tiles = Array.from({ length: n }, (_, i) => (i + 1) % n);
    expect(sliding.parse({ kind: 'sliding', rows: 1000, cols: 1000, tiles }).ok).toBe(true);
  });
});

describe('sliding.normalizeSpec', () => {
  const norm = (s: Partial<ScrambleSpec>) => sliding.normalizeSpec({ kind: 'sliding', ...s } as ScrambleSpec);

  it('turns size into rows and cols', () => {
    expect(norm({ size: 4 })).toEqual({ ok: true, value: { kind: 'sliding', rows: 4, cols: 4 } });
    expect(norm({ rows: 2, cols: 7 })).toEqual({ ok: true, value: { kind: 'sliding', rows: 2, cols: 7 } });
    expect(norm({ size: 3, rows: 3 })).toEqual({ ok: true, value: { kind: 'sliding', rows: 3, cols: 3 } });
  });

  it('rejects out-of-range, non-integer, missing and contradictory sizes', () => {
    const bad = (s: Partial<ScrambleSpec>) => {
      const r = norm(s);
      return r.ok ? 'accepted' : r.reason;
    };
    expect(bad({ size: 1 })).toBe('size must be an integer from 2 to 1000, got 1');
    expect(bad({ size: 1001 })).toMatch(/^size must be an integer/);
    expect(bad({ rows: 3.5, cols: 3 })).toBe('rows must be an integer from 2 to 1000, got 3.5');
    expect(bad({ rows: 3 })).toBe('rows given without cols');
    expect(bad({})).toBe('a sliding spec needs size, or rows and cols');
    expect(bad({ size: 3, cols: 4 })).toMatch(/contradicts/);
    expect(sliding.normalizeSpec({ kind: 'hanoi', discs: 3 }).ok).toBe(false);
  });
});
