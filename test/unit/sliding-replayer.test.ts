import { describe, expect, it } from 'vitest';
import { sliding } from '../../src/puzzles/sliding/index.ts';
import { walkTiles } from '../../src/puzzles/sliding/scramble.ts';
import { createRng } from '../../src/core/rng.ts';
import type { SlidingState } from '../../src/core/types.ts';

const goal = (rows: number, cols: number) => sliding.goal({ kind: 'sliding', rows, cols });

/** A 3x3 start with the blank in the centre (1 2 3 / 4 . 6 / 7 5 8), two moves (D R) from the goal. */
const centre: SlidingState = { kind: 'sliding', rows: 3, cols: 3, tiles: [1, 2, 3, 4, 0, 6, 7, 5, 8] };

/** Independent naive simulator on plain arrays: index of the first illegal move (or −1) and the final tiles. */
function naive(start: SlidingState, moves: string): { bad: number; tiles: number[] } {
  const t = [...start.tiles];
  let b = t.indexOf(0);
  for (let i = 0; i < moves.length; i++) {
    const r = Math.floor(b / start.cols);
    const c = b % start.cols;
    const [nr, nc] =
      moves[i] === 'U' ? [r - 1, c] : moves[i] === 'D' ? [r + 1, c] : moves[i] === 'L' ? [r, c - 1] : moves[i] === 'R' ? [r, c + 1] : [-1, -1];
    if (nr < 0 || nr >= start.rows || nc < 0 || nc >= start.cols) return { bad: i, tiles: t };
    const nb = nr * start.cols + nc;
    t[b] = t[nb];
    t[nb] = 0;
    b = nb;
  }
  return { bad: -1, tiles: t };
}

describe('sliding.parseMoves / formatMoves', () => {
  it('round-trips the compact notation', () => {
    for (const m of ['', 'U', 'UDLR', 'LLUURRDD', 'RDLU'.repeat(50)]) {
      const p = sliding.parseMoves(m);
      expect(p).toEqual({ ok: true, value: m });
      if (p.ok) expect(sliding.formatMoves(p.value)).toBe(m);
    }
  });

  it('formats a stray array as JSON, which parseMoves then rejects', () => {
    expect(sliding.formatMoves([[1, 2]])).toBe('[[1,2]]');
    expect(sliding.parseMoves(sliding.formatMoves([[1, 2]])).ok).toBe(false);
  });

  it('accepts lowercase and ignores whitespace and newlines in user text', () => {
    expect(sliding.parseMoves('u d l r\nUU\r\n\tLL  ')).toEqual({ ok: true, value: 'UDLRUULL' });
  });

  it('rejects other characters with line and column', () => {
    const r = sliding.parseMoves('UD\nLXR');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toBe("line 2, column 2: unknown move letter 'X'; expected U, D, L or R (where the blank goes)");
    expect(sliding.parseMoves('U,D').ok).toBe(false);
    expect(sliding.parseMoves('N').ok).toBe(false);
  });
});

describe('sliding.replayer', () => {
  it('stops at the edge on every side with the exact index and reason', () => {
    const cases: Array<[string, number, string]> = [
      ['UU', 1, "move 1 'U': blank at row 0 cannot go up"],
      ['DD', 1, "move 1 'D': blank at row 2 (the bottom row) cannot go down"],
      ['LL', 1, "move 1 'L': blank at column 0 cannot go left"],
      ['RR', 1, "move 1 'R': blank at column 2 (the last column) cannot go right"],
      ['ULDRRUU', 6, "move 6 'U': blank at row 0 cannot go up"],
    ];
    for (const [moves, index, reason] of cases) {
      const r = sliding.replayer(centre);
      expect(r.push(moves)).toEqual({ ok: false, code: 'illegal-move', index, reason });
      expect(r.count).toBe(index);
      expect(sliding.replay(centre, moves)).toEqual({ verdict: 'invalid', moves: index, index, reason });
    }
  });

  it('catches illegal moves from the goal corner', () => {
    expect(sliding.replayer(goal(4, 4)).push('D')?.reason).toBe("move 0 'D': blank at row 3 (the bottom row) cannot go down");
    expect(sliding.replayer(goal(4, 4)).push('R')?.reason).toBe("move 0 'R': blank at column 3 (the last column) cannot go right");
    expect(sliding.replayer(goal(2, 5)).push('LLLLL')?.index).toBe(4);
    expect(sliding.replayer(goal(5, 2)).push('UUUUU')?.index).toBe(4);
  });

  it('rejects unknown letters, lowercase and whitespace on the wire', () => {
    const r = sliding.replayer(centre);
    expect(r.push('UX')).toEqual({ ok: false, code: 'bad-move', index: 1, reason: "move 1: unknown move letter 'X'; expected U, D, L or R" });
    expect(sliding.replayer(centre).push('u')?.reason).toBe("move 0: unknown move letter 'u'; expected U, D, L or R");
    expect(sliding.replayer(centre).push('U D')?.reason).toBe('move 1: unknown move letter U+0020; expected U, D, L or R');
    expect(sliding.replayer(centre).push('U\n')?.index).toBe(1);
  });

  it('counts indexes across chunk boundaries and stays dead after a rejection', () => {
    const r = sliding.replayer(centre);
    expect(r.push('UL')).toBeNull();
    expect(r.push('')).toBeNull();
    expect(r.push('D')).toBeNull();
    const rej = r.push('RRR');
    expect(rej).toEqual({ ok: false, code: 'illegal-move', index: 5, reason: "move 5 'R': blank at column 2 (the last column) cannot go right" });
    expect(r.push('L')).toBe(rej);
    expect(r.count).toBe(5);
    expect(r.finish()).toEqual({ verdict: 'invalid', moves: 5, index: 5, reason: rej!.reason });
  });

  it('rejects the first move of a later chunk at its global index', () => {
    const r = sliding.replayer(goal(3, 3));
    expect(r.push('UU')).toBeNull();
    expect(r.push('U')?.index).toBe(2);
  });

  it('rejects an array chunk', () => {
    const r = sliding.replayer(centre);
    expect(r.push('U')).toBeNull();
    const rej = r.push([[1, 2]]);
    expect(rej?.code).toBe('bad-chunk');
    expect(rej?.index).toBe(1);
    expect(rej?.reason).toMatch(/must be a string/);
  });

  it('tracks isSolved incrementally and finishes without an index when unsolved', () => {
    const r = sliding.replayer(centre);
    expect(r.isSolved()).toBe(false);
    expect(r.push('D')).toBeNull();
    expect(r.isSolved()).toBe(false);
    expect(r.push('R')).toBeNull();
    expect(r.isSolved()).toBe(true);
    expect(r.finish()).toEqual({ verdict: 'solved', moves: 2 });
    expect(r.push('L')).toBeNull();
    expect(r.isSolved()).toBe(false);
    expect(r.finish()).toEqual({ verdict: 'invalid', moves: 3, reason: 'not solved after the last move' });
    expect(sliding.replay(goal(3, 3), '')).toEqual({ verdict: 'solved', moves: 0 });
  });

  it('agrees with a naive simulator on random move strings split into random chunks', () => {
    const rng = createRng('replayer-vs-naive');
    const letters = 'UDLRUDLRUDLRX';
    for (const [rows, cols] of [[2, 2], [3, 3], [2, 5], [6, 3]] as const) {
      for (let i = 0; i < 400; i++) {
        const start = sliding.scramble({ kind: 'sliding', rows, cols }, rng);
        const len = rng.int(30);
        let moves = '';
        for (let j = 0; j < len; j++) moves += letters[rng.int(i % 2 === 0 ? 4 : letters.length)];
        const expected = naive(start, moves);
        const r = sliding.replayer(start);
        let rej = null;
        for (let at = 0; at < moves.length && !rej; ) {
          const size = 1 + rng.int(5);
          rej = r.push(moves.slice(at, at + size));
          at += size;
        }
        if (expected.bad >= 0) {
          expect(rej?.index).toBe(expected.bad);
          expect(r.count).toBe(expected.bad);
        } else {
          expect(rej).toBeNull();
          expect(r.count).toBe(moves.length);
          const solved = expected.tiles.every((t, k) => t === (k + 1) % expected.tiles.length);
          expect(r.isSolved()).toBe(solved);
          expect(sliding.replay({ ...start, tiles: expected.tiles }, '').verdict).toBe(solved ? 'solved' : 'invalid');
        }
      }
    }
  });

  it('validates a long random walk on 100x100 and its inverse solves it', () => {
    const { tiles, moves } = walkTiles(100, 100, 200_000, createRng(5));
    expect(sliding.replay(goal(100, 100), moves).moves).toBe(200_000);
    const opp: Record<string, string> = { U: 'D', D: 'U', L: 'R', R: 'L' };
    const inverse = [...moves].reverse().map((m) => opp[m]).join('');
    const start: SlidingState = { kind: 'sliding', rows: 100, cols: 100, tiles: Array.from(tiles) };
    expect(sliding.replay(start, inverse)).toEqual({ verdict: 'solved', moves: 200_000 });
  });
});
