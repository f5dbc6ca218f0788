/**
 * Cycle arithmetic of the swap puzzle (seed 004, Brodal): with k cycles in the permutation "cell → home of
 * the piece standing there", exactly n − k swaps are necessary and the greedy below uses exactly that many.
 * `tiles[i]` is the piece on cell i (row-major), pieces 1..n, piece p's home is cell p − 1.
 */

/** Number of cycles of the permutation (a piece at home is a cycle of its own). O(n). */
export function swapsCycles(tiles: ArrayLike<number>): number {
  const n = tiles.length;
  const seen = new Uint8Array(n);
  let cycles = 0;
  for (let i = 0; i < n; i++) {
    if (seen[i]) continue;
    cycles++;
    for (let j = i; !seen[j]; j = tiles[j] - 1) seen[j] = 1;
  }
  return cycles;
}

/** Exact minimum number of swaps: n − cycles (Theorem 1 of seed 004). */
export function swapsDistance(tiles: ArrayLike<number>): number {
  return tiles.length - swapsCycles(tiles);
}

/**
 * Brodal's greedy: while a piece x is misplaced, swap it with the piece y standing on x's home. Walking the
 * cells once and settling each cell's cycle in place makes it O(n). Returns the swaps as piece-number pairs
 * [x, y]; the number of swaps is exactly {@link swapsDistance}.
 */
export function swapsGreedy(tiles: ArrayLike<number>): Array<[number, number]> {
  const work = Int32Array.from(tiles);
  const out: Array<[number, number]> = [];
  for (let i = 0; i < work.length; i++) {
    while (work[i] !== i + 1) {
      const x = work[i];
      const y = work[x - 1];
      work[x - 1] = x;
      work[i] = y;
      out.push([x, y]);
    }
  }
  return out;
}
