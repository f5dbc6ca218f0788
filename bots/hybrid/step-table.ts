/**
 * Exact cost of one plan step, ignoring every tile but the step's own: for each position of the blank and
 * of the step's one or two tiles inside the free region, the fewest moves that bring those tiles home, the
 * other free tiles being indistinguishable (so moving them is free to choose, but still costs a move) and
 * the fixed cells being walls. This is the step's own pattern database, over a state space of m² (one
 * tile) or m³ (two tiles) for a region of m cells, built by one breadth-first search backwards from every
 * goal placement (moves are reversible, so distances from the goals are distances to them).
 *
 * The beam search reads it as the exact cost-to-go of its current step, which is what lets it place the
 * last two tiles of a line, and a tile next to fixed ones, without any special-case move lists.
 */
import type { Step } from './plan.ts';

/** Distance to a step's goal from every abstract state. */
export interface StepTable {
  /** Region size. */
  readonly m: number;
  /** Real cell → local index in the region, or −1 for a wall. */
  readonly local: Int16Array;
  /** 1 or 2 tiles. */
  readonly k: number;
  /**
   * Distances, 255 when unreachable: index blank·m + tile for one tile, (blank·m + first)·m + second for two.
   */
  readonly dist: Uint8Array;
}

export const UNREACHABLE = 255;

/**
 * Builds the table of `step` on an R×C board. Throws RangeError for a region too big to tabulate (more than
 * 2^24 states), which the plan never produces for boards of up to 256 cells.
 */
export function buildStepTable(rows: number, cols: number, step: Step): StepTable {
  const n = rows * cols;
  const local = new Int16Array(n).fill(-1);
  const cellOf: number[] = [];
  for (let c = 0; c < n; c++) {
    if (step.frozen[c]) continue;
    local[c] = cellOf.length;
    cellOf.push(c);
  }
  const m = cellOf.length;
  const k = step.tiles.length;
  const size = k === 1 ? m * m : m * m * m;
  if (size > 1 << 24) throw new RangeError(`step table of ${size} states is too big`);
  // Local neighbour table: nbr[4i + d] = local cell next to i in direction d, or −1.
  const nbr = new Int16Array(4 * m).fill(-1);
  for (let i = 0; i < m; i++) {
    const c = cellOf[i];
    const r = (c / cols) | 0;
    const col = c % cols;
    if (r > 0) nbr[4 * i] = local[c - cols];
    if (r < rows - 1) nbr[4 * i + 1] = local[c + cols];
    if (col > 0) nbr[4 * i + 2] = local[c - 1];
    if (col < cols - 1) nbr[4 * i + 3] = local[c + 1];
  }
  const dist = new Uint8Array(size).fill(UNREACHABLE);
  const queue = new Int32Array(size);
  let tail = 0;
  if (k === 1) {
    const h = local[step.homes[0]];
    for (let b = 0; b < m; b++) {
      if (b === h) continue;
      const s = b * m + h;
      dist[s] = 0;
      queue[tail++] = s;
    }
    for (let head = 0; head < tail; head++) {
      const s = queue[head];
      const b = (s / m) | 0;
      const t = s - b * m;
      const d = dist[s] + 1;
      for (let dir = 0; dir < 4; dir++) {
        const nb = nbr[4 * b + dir];
        if (nb < 0) continue;
        const ns = nb === t ? t * m + b : nb * m + t;
        if (dist[ns] === UNREACHABLE) {
          dist[ns] = d;
          queue[tail++] = ns;
        }
      }
    }
  } else {
    const hp = local[step.homes[0]];
    const hl = local[step.homes[1]];
    const mm = m * m;
    for (let b = 0; b < m; b++) {
      if (b === hp || b === hl) continue;
      const s = b * mm + hp * m + hl;
      dist[s] = 0;
      queue[tail++] = s;
    }
    for (let head = 0; head < tail; head++) {
      const s = queue[head];
      const b = (s / mm) | 0;
      const rest = s - b * mm;
      const p = (rest / m) | 0;
      const l = rest - p * m;
      const d = dist[s] + 1;
      for (let dir = 0; dir < 4; dir++) {
        const nb = nbr[4 * b + dir];
        if (nb < 0) continue;
        const ns = nb === p ? nb * mm + b * m + l : nb === l ? nb * mm + p * m + b : nb * mm + rest;
        if (dist[ns] === UNREACHABLE) {
          dist[ns] = d;
          queue[tail++] = ns;
        }
      }
    }
  }
  return { m, local, k, dist };
}

/**
 * The expected cost of a future step j as a function of where its tiles are now, so that a state's estimate
 * does not jump when it completes a step: when step j − 1 is done, the blank stands next to one of that
 * step's home cells (it just pushed the tile in), so the estimate is D_j with the blank on the best such cell.
 * Over real cells: `est[cell]` for a one-tile step, `est[p·n + l]` for a pair. A tile standing on a cell
 * that step j will find fixed (it must leave first) is valued at the nearest free cell plus the distance to
 * it. (Not at the cheapest free cell plus the distance: that values such a tile at about its Manhattan
 * distance, a fraction of what carrying it costs, and the beam then parks later tiles on cells about to be
 * fixed; measured 1.93 → 2.39 times the lower bound on 10×10.)
 */
export function stepEstimate(rows: number, cols: number, step: Step, prevHomes: readonly number[], table: StepTable): Float32Array {
  const n = rows * cols;
  const { m, local, dist } = table;
  const isFree = (c: number): boolean => local[c] >= 0;
  // Candidate blank cells: free neighbours of the previous step's homes (all free cells when there are none).
  const blanks: number[] = [];
  for (const h of prevHomes) {
    const r = (h / cols) | 0;
    const c = h % cols;
    for (const [dr, dc] of [[-1, 0], [1, 0], [0, -1], [0, 1]]) {
      const rr = r + dr;
      const cc = c + dc;
      if (rr < 0 || cc < 0 || rr >= rows || cc >= cols) continue;
      const x = rr * cols + cc;
      if (isFree(x) && !blanks.includes(local[x])) blanks.push(local[x]);
    }
  }
  if (blanks.length === 0) for (let i = 0; i < m; i++) blanks.push(i);
  // Nearest free cell of every cell, by a multi-source BFS over the grid.
  const near = new Int32Array(n).fill(-1);
  const away = new Int32Array(n);
  const queue: number[] = [];
  for (let c = 0; c < n; c++) {
    if (isFree(c)) {
      near[c] = c;
      queue.push(c);
    }
  }
  for (let head = 0; head < queue.length; head++) {
    const c = queue[head];
    const r = (c / cols) | 0;
    const k = c % cols;
    for (const x of [r > 0 ? c - cols : -1, r < rows - 1 ? c + cols : -1, k > 0 ? c - 1 : -1, k < cols - 1 ? c + 1 : -1]) {
      if (x < 0 || near[x] >= 0) continue;
      near[x] = near[c];
      away[x] = away[c] + 1;
      queue.push(x);
    }
  }
  const best = (value: (b: number) => number): number => {
    let v = UNREACHABLE;
    for (const b of blanks) {
      const d = value(b);
      if (d < v) v = d;
    }
    return v;
  };
  if (table.k === 1) {
    const est = new Float32Array(n);
    const byLocal = new Float32Array(m);
    for (let t = 0; t < m; t++) byLocal[t] = best((b) => (b === t ? UNREACHABLE : dist[b * m + t]));
    for (let c = 0; c < n; c++) est[c] = byLocal[local[near[c]]] + away[c];
    return est;
  }
  const byLocal = new Float32Array(m * m);
  for (let p = 0; p < m; p++) {
    for (let l = 0; l < m; l++) {
      byLocal[p * m + l] = p === l ? UNREACHABLE : best((b) => (b === p || b === l ? UNREACHABLE : dist[(b * m + p) * m + l]));
    }
  }
  const est = new Float32Array(n * n);
  for (let p = 0; p < n; p++) {
    const lp = local[near[p]];
    for (let l = 0; l < n; l++) {
      if (l === p) continue;
      let ll = local[near[l]];
      let extra = away[p] + away[l];
      if (ll === lp) {
        // Both would leave through the same cell: value the second at the best other free neighbour of it.
        ll = -1;
        const c = near[l];
        const r = (c / cols) | 0;
        const k = c % cols;
        for (const x of [r > 0 ? c - cols : -1, r < rows - 1 ? c + cols : -1, k > 0 ? c - 1 : -1, k < cols - 1 ? c + 1 : -1]) {
          if (x >= 0 && isFree(x) && local[x] !== lp && (ll < 0 || byLocal[lp * m + local[x]] < byLocal[lp * m + ll])) ll = local[x];
        }
        extra += 1;
        if (ll < 0) {
          est[p * n + l] = UNREACHABLE;
          continue;
        }
      }
      est[p * n + l] = byLocal[lp * m + ll] + extra;
    }
  }
  return est;
}
