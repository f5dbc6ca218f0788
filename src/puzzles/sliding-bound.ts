/**
 * Admissible lower bounds for sliding boards of any size.
 *
 * Linear conflict, in its exact form: in one row, take the tiles whose goal is that row. A tile that never
 * leaves the row cannot pass another tile of the row, so the tiles that stay keep their order and must be
 * increasing in goal column; at least (k − LIS) of the k tiles therefore leave the row and come back, two
 * vertical moves each that Manhattan distance does not count (their vertical distance is 0). Columns alike,
 * with horizontal moves, so the row and column terms add. LIS by patience sorting keeps this
 * O(cells · log side), about 10 ms for 1000×1000.
 */

/** Sum over non-blank tiles of the row plus column distance to their home cell. */
export function manhattan(tiles: ArrayLike<number>, rows: number, cols: number): number {
  let sum = 0;
  for (let r = 0, i = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++, i++) {
      const t = tiles[i];
      if (t === 0) continue;
      const home = t - 1;
      const hr = (home / cols) | 0;
      const hc = home - hr * cols;
      sum += (hr > r ? hr - r : r - hr) + (hc > c ? hc - c : c - hc);
    }
  }
  return sum;
}

/** Length of the longest increasing subsequence of seq[0..k), using `tails` as scratch (length ≥ k). */
function lis(seq: Int32Array, k: number, tails: Int32Array): number {
  let len = 0;
  for (let i = 0; i < k; i++) {
    const v = seq[i];
    let lo = 0;
    let hi = len;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (tails[mid] < v) lo = mid + 1;
      else hi = mid;
    }
    tails[lo] = v;
    if (lo === len) len++;
  }
  return len;
}

/**
 * Manhattan distance plus linear conflicts (see the module comment): an admissible lower bound on the
 * number of moves from `tiles` (row-major, 0 = blank, a valid R×C arrangement) to the goal, and never less
 * than {@link manhattan}.
 */
export function manhattanLinearConflict(tiles: ArrayLike<number>, rows: number, cols: number): number {
  const side = rows > cols ? rows : cols;
  const seq = new Int32Array(side);
  const tails = new Int32Array(side);
  let extra = 0;
  for (let r = 0; r < rows; r++) {
    let k = 0;
    const base = r * cols;
    for (let c = 0; c < cols; c++) {
      const t = tiles[base + c];
      if (t === 0) continue;
      const home = t - 1;
      const hr = (home / cols) | 0;
      if (hr === r) seq[k++] = home - hr * cols;
    }
    if (k > 1) extra += 2 * (k - lis(seq, k, tails));
  }
  for (let c = 0; c < cols; c++) {
    let k = 0;
    for (let r = 0; r < rows; r++) {
      const t = tiles[r * cols + c];
      if (t === 0) continue;
      const home = t - 1;
      const hr = (home / cols) | 0;
      if (home - hr * cols === c) seq[k++] = hr;
    }
    if (k > 1) extra += 2 * (k - lis(seq, k, tails));
  }
  return manhattan(tiles, rows, cols) + extra;
}
