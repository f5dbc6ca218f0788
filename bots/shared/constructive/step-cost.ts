/**
 * Look-ahead cost of carrying a tile on an open board, used to break the thesis's table/hierarchy choices.
 *
 * Model (the one behind the thesis's Lemma 1 and Theorem 2): the blank sits on one of the four sides of the
 * target tile; moving it to another side costs its ring distance around the tile (2 to a neighbouring side
 * via a corner, 4 to the opposite side), and one more move pushes the tile, leaving the blank behind it.
 * H(a, b, side) is the least cost to carry the tile a columns and b rows towards its destination, with the
 * blank on `side`: 0 = ahead horizontally, 1 = behind horizontally, 2 = ahead vertically, 3 = behind
 * vertically. The optimum alternates directions while both a, b > 0 (3 moves per step: the staircase of
 * Theorem 2's worst case) and pays 5 per step in a straight line; where the turn happens matters by 2 moves,
 * which a one-step greedy cannot see but this table does.
 */

/** Ring distance between two sides in the encoding above. */
function sideDistance(s: number, t: number): number {
  if (s === t) return 0;
  return (s ^ 1) === t ? 4 : 2;
}

let size = -1;
let table = new Int32Array(0);

/** Ensures the table covers displacements up to `n` in both directions (grown on demand, kept). */
function ensure(n: number): void {
  if (n <= size) return;
  const m = Math.max(n, 2 * size, 16);
  const w = m + 1;
  const h = new Int32Array(w * w * 4);
  for (let a = 0; a <= m; a++) {
    for (let b = 0; b <= m; b++) {
      for (let s = 0; s < 4; s++) {
        let best = a === 0 && b === 0 ? 0 : 0x3fffffff;
        if (a > 0) best = Math.min(best, sideDistance(s, 0) + 1 + h[((a - 1) * w + b) * 4 + 1]);
        if (b > 0) best = Math.min(best, sideDistance(s, 2) + 1 + h[(a * w + b - 1) * 4 + 3]);
        h[(a * w + b) * 4 + s] = best;
      }
    }
  }
  table = h;
  size = m;
}

/**
 * Estimated moves to carry a tile `a` columns and `b` rows to its destination with the blank on `side`
 * (0 ahead / 1 behind horizontally, 2 ahead / 3 behind vertically), on an open board.
 */
export function carryCost(a: number, b: number, side: number): number {
  if (a > size || b > size) ensure(Math.max(a, b));
  return table[(a * (size + 1) + b) * 4 + side];
}
