/**
 * Admissible lower bounds for sliding boards of any size.
 *
 * Linear conflict, in its exact form: in one row, take the tiles whose goal is that row. A tile that never
 * leaves the row cannot pass another tile of the row, so the tiles that stay keep their order and must be
 * increasing in goal column; at least (k − LIS) of the k tiles therefore leave the row and come back, two
 * vertical moves each that Manhattan distance does not count (their vertical distance is 0). Columns alike,
 * with horizontal moves, so the row and column terms add. LIS by patience sorting keeps this
 * O(cells · log side).
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

/** Length of the longest strictly increasing subsequence of seq[from..to), using `tails` as scratch. */
function lis(seq: Int32Array, from: number, to: number, tails: Int32Array): number {
  let len = 0;
  for (let i = from; i < to; i++) {
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
 * than {@link manhattan}. One row-major pass does Manhattan and the rows and notes the tiles already in
 * their goal column; a counting sort groups those by column (keeping row order) so the column pass reads
 * contiguous memory instead of striding down a million-cell board.
 */
export function manhattanLinearConflict(tiles: ArrayLike<number>, rows: number, cols: number): number {
  const n = rows * cols;
  const side = rows > cols ? rows : cols;
  const seq = new Int32Array(side);
  const tails = new Int32Array(side);
  // The j-th tile met (row-major) that stands in its goal column: its goal row and its column.
  const inColumn = new Int32Array(n);
  const columnOf = new Int32Array(n);
  const perColumn = new Int32Array(cols + 1);
  let m = 0;
  let sum = 0;
  let extra = 0;
  for (let r = 0, i = 0; r < rows; r++) {
    let k = 0;
    for (let c = 0; c < cols; c++, i++) {
      const t = tiles[i];
      if (t === 0) continue;
      const home = t - 1;
      const hr = (home / cols) | 0;
      const hc = home - hr * cols;
      sum += (hr > r ? hr - r : r - hr) + (hc > c ? hc - c : c - hc);
      if (hr === r) seq[k++] = hc;
      if (hc === c) {
        inColumn[m] = hr;
        columnOf[m++] = c;
        perColumn[c + 1]++;
      }
    }
    if (k > 1) extra += 2 * (k - lis(seq, 0, k, tails));
  }
  for (let c = 0; c < cols; c++) perColumn[c + 1] += perColumn[c];
  const grouped = new Int32Array(m);
  const fill = perColumn.slice(0, cols);
  for (let j = 0; j < m; j++) grouped[fill[columnOf[j]]++] = inColumn[j];
  for (let c = 0; c < cols; c++) {
    const from = perColumn[c];
    const to = perColumn[c + 1];
    if (to - from > 1) extra += 2 * (to - from - lis(grouped, from, to, tails));
  }
  return sum + extra;
}
