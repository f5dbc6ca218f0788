/**
 * Compact ranking of partial permutations, shared by the pattern-database builder and the lookups: k items
 * (tiles) placed on distinct cells of an N-cell board (N ≤ 31) get an index in [0, N·(N−1)·…·(N−k+1)).
 * Item i contributes the rank of its cell among the cells not used by items 0..i−1, in mixed radix, so the
 * table holds no holes and an occupancy mask plus a popcount table is all the per-item work.
 */

/** Bits set in each 16-bit value. */
export const POPCOUNT16: Uint8Array = (() => {
  const t = new Uint8Array(65536);
  for (let i = 1; i < 65536; i++) t[i] = t[i >> 1] + (i & 1);
  return t;
})();

/** Bits set in a 32-bit mask (two table lookups). */
export function popcount32(m: number): number {
  return POPCOUNT16[m & 0xffff] + POPCOUNT16[m >>> 16];
}

/** Number of placements of k distinct items on n cells: n·(n−1)·…·(n−k+1). */
export function placements(n: number, k: number): number {
  let p = 1;
  for (let i = 0; i < k; i++) p *= n - i;
  return p;
}

/** Mixed-radix weights of the k items: weight[i] = (n−i−1)·…·(n−k+1). */
export function rankWeights(n: number, k: number): Int32Array {
  const w = new Int32Array(k);
  for (let i = 0; i < k; i++) w[i] = placements(n - i - 1, k - i - 1);
  return w;
}

/** Rank of the placement `cells[0..k)` (cell of item i), with weights from {@link rankWeights}. */
export function rankCells(cells: ArrayLike<number>, k: number, weights: Int32Array): number {
  let used = 0;
  let idx = 0;
  for (let i = 0; i < k; i++) {
    const p = cells[i];
    idx += (p - popcount32(used & ((1 << p) - 1))) * weights[i];
    used |= 1 << p;
  }
  return idx;
}

