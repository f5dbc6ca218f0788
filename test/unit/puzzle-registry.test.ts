import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/rng.ts';
import { PUZZLE_KINDS } from '../../src/core/puzzle-kinds.ts';
import type { PuzzleState, WireMoves } from '../../src/core/types.ts';
import { allPuzzles, getPuzzle, parseState, puzzleOf, puzzles, registerPuzzle } from '../../src/puzzles/index.ts';
import { MOVE_FORMS, moveFormOf, type MoveForm } from '../../src/puzzles/move-form.ts';
import { joinPieces, MoveRecorder } from '../../src/puzzles/move-pieces.ts';
import { sizeOptionHelp, specFromSizeOptions } from '../../src/puzzles/size-options.ts';
import { chunked } from '../../src/sdk/chunked.ts';

/** A few legal-looking answers in each kind's notation (codec round trips do not need them to solve anything). */
const SAMPLE_MOVES: Record<string, WireMoves> = {
  sliding: 'UULDRRDL',
  hanoi: 'ACABCBACBABCAC',
  swaps: [[6, 7], [2, 4], [1, 5], [3, 8], [5, 9]],
  warehouse: '17U 4L 12D 3R',
};

/** The chunks as the referee records them, joined back. */
function joinChunks(chunks: readonly WireMoves[], form: MoveForm): WireMoves {
  const r = new MoveRecorder(form.name);
  for (const c of chunks) r.push(c);
  return joinPieces(r.result());
}

describe('puzzle registry - the kinds and their common parts', () => {
  it('registry - holds exactly the kinds of PUZZLE_KINDS, in that order, each under its own name', () => {
    expect(Object.keys(puzzles)).toEqual([...PUZZLE_KINDS]);
    expect(allPuzzles().map((p) => p.kind)).toEqual([...PUZZLE_KINDS]);
    for (const k of PUZZLE_KINDS) expect(puzzles[k].kind).toBe(k);
  });

  it('getPuzzle - rejects unknown and non-string names with the list of kinds', () => {
    for (const bad of ['rubik', '', 42, null, 'constructor', '__proto__']) {
      const r = getPuzzle(bad);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.reason).toContain(PUZZLE_KINDS.join(', '));
    }
    expect(() => puzzleOf({ kind: 'rubik' })).toThrow(/unknown puzzle kind/);
  });

  it.each(PUZZLE_KINDS)('%s - default spec, compliance specs and fixed states are valid and usable', (kind) => {
    const p = puzzles[kind];
    expect(p.normalizeSpec(p.defaultSpec).ok).toBe(true);
    expect(p.compliance.specs.length).toBeGreaterThan(0);
    const rng = createRng(`registry-${kind}`);
    for (const spec of p.compliance.specs) {
      expect(spec.kind).toBe(kind);
      const norm = p.normalizeSpec(spec);
      expect(norm.ok).toBe(true);
      if (norm.ok) expect(p.parse(p.scramble(norm.value, rng)).ok).toBe(true);
    }
    for (const s of p.compliance.fixed) {
      expect(p.parse(s)).toEqual({ ok: true, value: s });
      expect(p.isSolved(s)).toBe(false);
    }
  });

  it.each(PUZZLE_KINDS)('%s - the wire shape accepts every scramble and its goal', (kind) => {
    const p = puzzles[kind];
    const rng = createRng(`shape-${kind}`);
    const spec = p.normalizeSpec(p.defaultSpec);
    if (!spec.ok) throw new Error(spec.reason);
    for (let i = 0; i < 20; i++) expect(p.wireShape.safeParse(p.scramble(spec.value, rng)).success).toBe(true);
    expect(p.wireShape.safeParse(p.goal(spec.value)).success).toBe(true);
    expect(p.wireShape.safeParse({ kind }).success).toBe(false);
  });

  it.each(PUZZLE_KINDS)('%s - moves: the form of its notation, stored and chunked losslessly, the empty answer is no move', (kind) => {
    const p = puzzles[kind];
    const m = SAMPLE_MOVES[kind]!;
    expect(moveFormOf(m)).toBe(p.moves);
    expect(p.moves.decode(p.moves.encode(m))).toEqual(m);
    expect(MOVE_FORMS[p.moves.name]).toBe(p.moves);
    for (const size of [1, 2, 3, 5, 1000]) expect(joinChunks([...chunked(m, size)], p.moves)).toEqual(m);
    expect(joinChunks([], p.moves)).toEqual(p.moves.empty);
    // The empty answer is a legal chunk of no moves for the kind's replayer.
    const spec = p.normalizeSpec(p.defaultSpec);
    if (!spec.ok) throw new Error(spec.reason);
    const r = p.replayer(p.scramble(spec.value, createRng(1)));
    expect(r.push(p.moves.empty)).toBeNull();
    expect(r.count).toBe(0);
  });

  it('MoveRecorder - keeps what a bot sent in the wrong form, as sent', () => {
    expect(joinChunks(['UD', 'LR'], puzzles.swaps.moves)).toBe('UDLR');
    expect(joinChunks([[[1, 2]], [[3, 4]]], puzzles.sliding.moves)).toEqual([[1, 2], [3, 4]]);
  });

  it('sizeMeasure - what the size flags count: the side (the larger) for sliding and swaps, discs for hanoi, n for warehouse', () => {
    const cases: Array<[PuzzleState, number]> = [
      [{ kind: 'sliding', rows: 3, cols: 5, tiles: [] }, 5],
      [{ kind: 'sliding', rows: 3, cols: 3, tiles: [] }, 3],
      [{ kind: 'swaps', rows: 2, cols: 7, tiles: [] }, 7],
      [{ kind: 'hanoi', pegs: 3, start: 'ABCAB', goal: 'CCCCC' }, 5],
      [{ kind: 'warehouse', size: 16, cells: [] }, 16],
    ];
    for (const [s, n] of cases) expect(puzzleOf(s).sizeMeasure(s)).toBe(n);
    // Protocol 1's measure, where it differed: cells.
    expect(puzzleOf(cases[0]![0]).cellMeasure?.(cases[0]![0])).toBe(15);
    expect(puzzleOf(cases[2]![0]).cellMeasure?.(cases[2]![0])).toBe(14);
    expect(puzzleOf(cases[3]![0]).cellMeasure).toBeUndefined();
  });
});

describe('size options - a spec from the CLI size flags', () => {
  it('specFromSizeOptions - no size given: the kind default (sliding 4x4, hanoi 8 discs, swaps 3x3, warehouse 9)', () => {
    expect(specFromSizeOptions(puzzles.sliding, {})).toEqual({ ok: true, value: { kind: 'sliding', rows: 4, cols: 4 } });
    expect(specFromSizeOptions(puzzles.hanoi, {})).toEqual({ ok: true, value: { kind: 'hanoi', discs: 8, randomGoal: false } });
    expect(specFromSizeOptions(puzzles.hanoi, { randomGoal: true })).toEqual({ ok: true, value: { kind: 'hanoi', discs: 8, randomGoal: true } });
    expect(specFromSizeOptions(puzzles.swaps, {})).toEqual({ ok: true, value: { kind: 'swaps', rows: 3, cols: 3 } });
    expect(specFromSizeOptions(puzzles.warehouse, {})).toMatchObject({ ok: true, value: { kind: 'warehouse', size: 9 } });
  });

  it('specFromSizeOptions - given sizes are used and checked by the kind', () => {
    expect(specFromSizeOptions(puzzles.sliding, { rows: 2, cols: 5 })).toEqual({ ok: true, value: { kind: 'sliding', rows: 2, cols: 5 } });
    expect(specFromSizeOptions(puzzles.hanoi, { discs: 12 })).toEqual({ ok: true, value: { kind: 'hanoi', discs: 12, randomGoal: false } });
    expect(specFromSizeOptions(puzzles.warehouse, { size: 5 }).ok).toBe(false);
    // A size option the kind does not read is not silently replaced by the default.
    expect(specFromSizeOptions(puzzles.swaps, { discs: 3 }).ok).toBe(false);
  });

  it('sizeOptionHelp - each meaning once, followed by the kinds that read the option that way', () => {
    expect(sizeOptionHelp('size', allPuzzles())).toBe('square side (sliding, swaps) or n, a perfect square (warehouse)');
    expect(sizeOptionHelp('rows', allPuzzles())).toBe('rows (sliding, swaps)');
    expect(sizeOptionHelp('discs', allPuzzles())).toMatch(/ \(hanoi\)$/);
  });
});

describe('registerPuzzle - a kind added at run time', () => {
  it('is found by name and by state until removed; a taken name is refused', () => {
    const fake = { ...puzzles.sliding, kind: 'sliding-copy' } as unknown as Parameters<typeof registerPuzzle>[0];
    const remove = registerPuzzle(fake);
    try {
      expect(getPuzzle('sliding-copy')).toEqual({ ok: true, value: fake });
      expect(allPuzzles().map((p) => p.kind)).toEqual([...PUZZLE_KINDS, 'sliding-copy']);
      expect(() => registerPuzzle(fake)).toThrow(/already registered/);
      expect(() => registerPuzzle({ ...puzzles.hanoi })).toThrow(/already registered/);
    } finally {
      remove();
    }
    expect(getPuzzle('sliding-copy').ok).toBe(false);
    expect(parseState({ kind: 'sliding-copy', rows: 2, cols: 2, tiles: [1, 2, 3, 0] }).ok).toBe(false);
  });
});
