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

/**
 * The rank of the placement held at `cells[off .. off + k)` with `weights[off .. off + k)` from
 * {@link rankWeights}: the same number as {@link rankCells}, computed the way the IDA* inner loops need it.
 * Item i's term is its cell less the earlier items on lower cells, counted by comparisons (`(a - b) >>> 31`
 * is 1 exactly when a < b) rather than a popcount table, which at 64 KiB does not stay in L1; the usual
 * pattern sizes are unrolled (8 and 7 for the 4×4 7-8 partition, 6 and 3 for 6-6-3).
 */
export function rankAt(cells: Uint8Array, off: number, k: number, weights: Int32Array): number {
  if (k === 8) {
    const a = cells[off];
    const b = cells[off + 1];
    const c = cells[off + 2];
    const d = cells[off + 3];
    const e = cells[off + 4];
    const f = cells[off + 5];
    const g = cells[off + 6];
    const h = cells[off + 7];
    return (
      a * weights[off] +
      (b - ((a - b) >>> 31)) * weights[off + 1] +
      (c - ((a - c) >>> 31) - ((b - c) >>> 31)) * weights[off + 2] +
      (d - ((a - d) >>> 31) - ((b - d) >>> 31) - ((c - d) >>> 31)) * weights[off + 3] +
      (e - ((a - e) >>> 31) - ((b - e) >>> 31) - ((c - e) >>> 31) - ((d - e) >>> 31)) * weights[off + 4] +
      (f - ((a - f) >>> 31) - ((b - f) >>> 31) - ((c - f) >>> 31) - ((d - f) >>> 31) - ((e - f) >>> 31)) * weights[off + 5] +
      (g - ((a - g) >>> 31) - ((b - g) >>> 31) - ((c - g) >>> 31) - ((d - g) >>> 31) - ((e - g) >>> 31) - ((f - g) >>> 31)) * weights[off + 6] +
      (h - ((a - h) >>> 31) - ((b - h) >>> 31) - ((c - h) >>> 31) - ((d - h) >>> 31) - ((e - h) >>> 31) - ((f - h) >>> 31) - ((g - h) >>> 31)) * weights[off + 7]
    );
  }
  if (k === 7) {
    const a = cells[off];
    const b = cells[off + 1];
    const c = cells[off + 2];
    const d = cells[off + 3];
    const e = cells[off + 4];
    const f = cells[off + 5];
    const g = cells[off + 6];
    return (
      a * weights[off] +
      (b - ((a - b) >>> 31)) * weights[off + 1] +
      (c - ((a - c) >>> 31) - ((b - c) >>> 31)) * weights[off + 2] +
      (d - ((a - d) >>> 31) - ((b - d) >>> 31) - ((c - d) >>> 31)) * weights[off + 3] +
      (e - ((a - e) >>> 31) - ((b - e) >>> 31) - ((c - e) >>> 31) - ((d - e) >>> 31)) * weights[off + 4] +
      (f - ((a - f) >>> 31) - ((b - f) >>> 31) - ((c - f) >>> 31) - ((d - f) >>> 31) - ((e - f) >>> 31)) * weights[off + 5] +
      (g - ((a - g) >>> 31) - ((b - g) >>> 31) - ((c - g) >>> 31) - ((d - g) >>> 31) - ((e - g) >>> 31) - ((f - g) >>> 31)) * weights[off + 6]
    );
  }
  if (k === 6) {
    const a = cells[off];
    const b = cells[off + 1];
    const c = cells[off + 2];
    const d = cells[off + 3];
    const e = cells[off + 4];
    const f = cells[off + 5];
    return (
      a * weights[off] +
      (b - ((a - b) >>> 31)) * weights[off + 1] +
      (c - ((a - c) >>> 31) - ((b - c) >>> 31)) * weights[off + 2] +
      (d - ((a - d) >>> 31) - ((b - d) >>> 31) - ((c - d) >>> 31)) * weights[off + 3] +
      (e - ((a - e) >>> 31) - ((b - e) >>> 31) - ((c - e) >>> 31) - ((d - e) >>> 31)) * weights[off + 4] +
      (f - ((a - f) >>> 31) - ((b - f) >>> 31) - ((c - f) >>> 31) - ((d - f) >>> 31) - ((e - f) >>> 31)) * weights[off + 5]
    );
  }
  if (k === 3) {
    const a = cells[off];
    const b = cells[off + 1];
    const c = cells[off + 2];
    return a * weights[off] + (b - ((a - b) >>> 31)) * weights[off + 1] + (c - ((a - c) >>> 31) - ((b - c) >>> 31)) * weights[off + 2];
  }
  let idx = 0;
  for (let i = 0; i < k; i++) {
    const p = cells[off + i];
    let r = p;
    for (let j = 0; j < i; j++) r -= (cells[off + j] - p) >>> 31;
    idx += r * weights[off + i];
  }
  return idx;
}
