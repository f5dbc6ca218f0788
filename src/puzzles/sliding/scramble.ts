import type { Rng } from '../../core/rng.ts';
import { shuffleInPlace } from '../../core/rng.ts';
import { unsolvableReason } from './parity.ts';

/** The goal arrangement 1..n−1 then the blank, as a fresh Int32Array. */
export function goalTiles(rows: number, cols: number): Int32Array {
  const n = rows * cols;
  const t = new Int32Array(n);
  for (let i = 0; i < n - 1; i++) t[i] = i + 1;
  return t;
}

/**
 * True when an arrangement is the goal or one move from it. Both have at most one misplaced non-blank tile
 * (then necessarily in the bottom-right corner, with the blank on its home), and one move away means that
 * tile sits next to the blank; a far corner tile (e.g. 7 on 4×4) is solvable but several moves away.
 */
export function withinOneMove(tiles: ArrayLike<number>, cols: number): boolean {
  let misplacedAt = -1;
  let blank = -1;
  for (let i = 0; i < tiles.length; i++) {
    const t = tiles[i];
    if (t === 0) blank = i;
    else if (t !== i + 1) {
      if (misplacedAt >= 0) return false;
      misplacedAt = i;
    }
  }
  if (misplacedAt < 0) return true;
  const dr = Math.abs(Math.floor(misplacedAt / cols) - Math.floor(blank / cols));
  const dc = Math.abs((misplacedAt % cols) - (blank % cols));
  return dr + dc === 1;
}

/**
 * Uniformly random solvable arrangement at least 2 moves from the goal. Fisher–Yates over all cells, then,
 * when unsolvable, swap the tiles of the first two non-blank cells: that swap flips the parity and keeps
 * the blank, and it is its own inverse, so it pairs each unsolvable arrangement with exactly one solvable
 * one and the result stays uniform. The (at most 3) arrangements within one move are re-drawn.
 */
export function scrambleTiles(rows: number, cols: number, rng: Rng): Int32Array {
  for (;;) {
    const t = shuffleInPlace(goalTiles(rows, cols), rng);
    if (unsolvableReason(t, rows, cols) !== null) {
      const a = t[0] === 0 ? 1 : 0;
      const b = t[a + 1] === 0 ? a + 2 : a + 1;
      const x = t[a];
      t[a] = t[b];
      t[b] = x;
    }
    if (!withinOneMove(t, cols)) return t;
  }
}

/** Letters of the four blank moves, indexed by direction 0 U, 1 D, 2 L, 3 R (d ^ 1 is the opposite). */
export const DIRECTION_LETTERS = 'UDLR';

/**
 * Random walk of exactly k blank moves from the goal, each uniform among the legal moves that do not undo
 * the previous one (every cell of a board with both sides ≥ 2 has at least two neighbours, so one exists).
 * Returns the tiles and the move string.
 */
export function walkTiles(rows: number, cols: number, k: number, rng: Rng): { tiles: Int32Array; moves: string } {
  if (!Number.isInteger(k) || k < 0) throw new RangeError(`sliding walk: k must be a non-negative integer, got ${k}`);
  const t = goalTiles(rows, cols);
  const n = rows * cols;
  let b = n - 1;
  let prev = -1;
  const options = new Int32Array(4);
  const moves = new Uint8Array(k);
  for (let s = 0; s < k; s++) {
    const c = b % cols;
    let m = 0;
    if (b >= cols && prev !== 1) options[m++] = 0;
    if (b < n - cols && prev !== 0) options[m++] = 1;
    if (c > 0 && prev !== 3) options[m++] = 2;
    if (c < cols - 1 && prev !== 2) options[m++] = 3;
    const d = options[rng.int(m)];
    const nb = d === 0 ? b - cols : d === 1 ? b + cols : d === 2 ? b - 1 : b + 1;
    t[b] = t[nb];
    t[nb] = 0;
    b = nb;
    prev = d;
    moves[s] = DIRECTION_LETTERS.charCodeAt(d);
  }
  return { tiles: t, moves: new TextDecoder().decode(moves) };
}
