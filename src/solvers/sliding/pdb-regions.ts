/**
 * The mask machinery of the pattern-database builder (pdb-build.ts): cell sets of a board of at most 31
 * cells as integer masks, the free regions of every occupancy precomputed, and a two-lookup rank of an
 * occupancy among all occupancies of its size.
 */
import { popcount32 as popcount } from './pdb-rank.ts';

/** Lowest set bit's index of a non-zero mask. */
export function lowest(mask: number): number {
  return 31 - Math.clz32(mask & -mask);
}

/** binom[i·(k+1) + j] = C(i, j) for i ≤ n, j ≤ k (the colex rank of a k-subset is Σ C(cell, index)). */
export function binomials(n: number, k: number): Float64Array {
  const b = new Float64Array((n + 1) * (k + 1));
  for (let i = 0; i <= n; i++) {
    b[i * (k + 1)] = 1;
    for (let j = 1; j <= Math.min(i, k); j++) b[i * (k + 1) + j] = b[(i - 1) * (k + 1) + j - 1] + (j <= i - 1 ? b[(i - 1) * (k + 1) + j] : 0);
  }
  return b;
}

/** Colex rank of a k-cell mask among all k-cell masks: Σ C(cell, j) over its cells, the j-th lowest first. */
export function maskRank(occ: number, binom: Float64Array, k: number): number {
  let r = 0;
  for (let j = 1; occ !== 0; j++, occ &= occ - 1) r += binom[lowest(occ) * (k + 1) + j];
  return r;
}

/** Bits of a mask ranked by {@link ColexTable}'s low lookup. */
const LOW_BITS = 13;

/**
 * {@link maskRank} in two lookups: the low 13 cells' share, then the high cells' share given how many low
 * cells came before them (the hot loop ranks an occupancy at every move).
 */
export class ColexTable {
  private readonly low: Int32Array;
  private readonly high: Int32Array;
  private readonly highSize: number;

  constructor(n: number, k: number, binom: Float64Array) {
    const lowSize = 1 << Math.min(n, LOW_BITS);
    this.low = new Int32Array(lowSize);
    for (let m = 0; m < lowSize; m++) if (popcount(m) <= k) this.low[m] = maskRank(m, binom, k);
    this.highSize = n > LOW_BITS ? 1 << (n - LOW_BITS) : 1;
    this.high = new Int32Array((k + 1) * this.highSize);
    for (let before = 0; before <= k; before++) {
      for (let m = 0; m < this.highSize; m++) {
        let r = 0;
        let j = before + 1;
        for (let x = m; x !== 0 && j <= k; x &= x - 1, j++) r += binom[(lowest(x) + LOW_BITS) * (k + 1) + j];
        this.high[before * this.highSize + m] = r;
      }
    }
  }

  rank(occ: number): number {
    const lo = occ & ((1 << LOW_BITS) - 1);
    return this.low[lo] + this.high[popcount(lo) * this.highSize + (occ >>> LOW_BITS)];
  }
}

/** The board's geometry as masks: a region grows one step by shifting, without wrapping across rows. */
export interface Geometry {
  readonly n: number;
  readonly cols: number;
  readonly all: number;
  readonly notCol0: number;
  readonly notColLast: number;
  /** Mask of each cell's neighbours. */
  readonly neighbors: Int32Array;
}

export function geometry(rows: number, cols: number): Geometry {
  const n = rows * cols;
  const all = (1 << n) - 1;
  let col0 = 0;
  let colLast = 0;
  for (let r = 0; r < rows; r++) {
    col0 |= 1 << (r * cols);
    colLast |= 1 << (r * cols + cols - 1);
  }
  const neighbors = new Int32Array(n);
  for (let c = 0; c < n; c++) {
    const r = Math.floor(c / cols);
    const q = c % cols;
    neighbors[c] = (r > 0 ? 1 << (c - cols) : 0) | (r < rows - 1 ? 1 << (c + cols) : 0) | (q > 0 ? 1 << (c - 1) : 0) | (q < cols - 1 ? 1 << (c + 1) : 0);
  }
  return { n, cols, all, notCol0: all & ~col0, notColLast: all & ~colLast, neighbors };
}

/** The region of `open` cells connected to the cells of `seed`. */
export function grow(g: Geometry, seed: number, open: number): number {
  let region = seed;
  for (;;) {
    const next = (region | ((region << 1) & g.notCol0) | ((region >>> 1) & g.notColLast) | (region << g.cols) | (region >>> g.cols)) & open;
    if (next === region) return region;
    region = next;
  }
}

/**
 * The regions of every k-cell occupancy, looked up instead of grown at each move: entry maskRank·n + c is
 * the region of free cell c (C(n, k)·n masks: 4.4 MB for 6 tiles on 5×5).
 */
export function regionTable(g: Geometry, k: number, binom: Float64Array): Int32Array {
  const { n, all } = g;
  const regions = new Int32Array(binom[n * (k + 1) + k] * n);
  for (let occ = (1 << k) - 1; occ <= all; ) {
    const base = maskRank(occ, binom, k) * n;
    const open = all & ~occ;
    for (let rest = open; rest !== 0; ) {
      const region = grow(g, rest & -rest, open);
      rest &= ~region;
      for (let m = region; m !== 0; m &= m - 1) regions[base + lowest(m)] = region;
    }
    // The next mask with k bits (Gosper's hack; `|` truncates the quotient).
    const low = occ & -occ;
    const up = occ + low;
    occ = up | (((occ ^ up) >>> 2) / low);
  }
  return regions;
}
