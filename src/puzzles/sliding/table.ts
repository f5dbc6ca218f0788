/**
 * Exact distance tables for the small sliding boards (at most 9 cells: 2×2, 2×3, 3×2, 2×4, 4×2, 3×3).
 * One breadth-first search from the goal per shape, built on first use and cached in memory. States are
 * ranked by their Lehmer code (a perfect hash of all n! arrangements) into a Uint8Array of distances, so
 * the 3×3 table is 362,880 bytes and builds in a fraction of a second. Unsolvable arrangements stay at
 * {@link UNREACHED}.
 */

/** An exact oracle for one small shape. */
export interface SlidingTable {
  /** Number of reachable states (n!/2). */
  readonly states: number;
  /** Largest optimal distance over all reachable states. */
  readonly maxDepth: number;
  /** Optimal number of moves from `tiles` (row-major, 0 = blank) to the goal; −1 when unsolvable. */
  distance(tiles: ArrayLike<number>): number;
  /** An optimal blank-move string (U D L R) from `tiles` to the goal; throws RangeError when unsolvable. */
  solve(tiles: ArrayLike<number>): string;
}

const UNREACHED = 255;
const FACT = [1, 1, 2, 6, 24, 120, 720, 5040, 40320, 362880];
const LETTERS = 'UDLR';

/** Lehmer-code rank of a permutation of 0..n−1 (n ≤ 9, so O(n²) is cheap). */
function rank(p: ArrayLike<number>, n: number): number {
  let r = 0;
  for (let i = 0; i < n - 1; i++) {
    const v = p[i];
    let smaller = 0;
    for (let j = i + 1; j < n; j++) if (p[j] < v) smaller++;
    r += smaller * FACT[n - 1 - i];
  }
  return r;
}

/** Inverse of {@link rank}, written into `out`. */
function unrank(r: number, n: number, out: Uint8Array, used: Uint8Array): void {
  used.fill(0);
  for (let i = 0; i < n; i++) {
    const f = FACT[n - 1 - i];
    let k = Math.floor(r / f);
    r -= k * f;
    let v = 0;
    for (;;) {
      if (!used[v]) {
        if (k === 0) break;
        k--;
      }
      v++;
    }
    used[v] = 1;
    out[i] = v;
  }
}

/** Target of moving the blank at `b` in direction d (0 U, 1 D, 2 L, 3 R), or −1 when off the board. */
function step(b: number, d: number, rows: number, cols: number): number {
  switch (d) {
    case 0: return b >= cols ? b - cols : -1;
    case 1: return b < (rows - 1) * cols ? b + cols : -1;
    case 2: return b % cols > 0 ? b - 1 : -1;
    default: return b % cols < cols - 1 ? b + 1 : -1;
  }
}

class Table implements SlidingTable {
  readonly states: number;
  readonly maxDepth: number;
  private readonly n: number;
  private readonly dist: Uint8Array;

  constructor(private readonly rows: number, private readonly cols: number) {
    const n = rows * cols;
    this.n = n;
    const dist = new Uint8Array(FACT[n]).fill(UNREACHED);
    const queue = new Int32Array(FACT[n] / 2);
    const cur = new Uint8Array(n);
    const used = new Uint8Array(n);
    for (let i = 0; i < n - 1; i++) cur[i] = i + 1;
    cur[n - 1] = 0;
    const g = rank(cur, n);
    dist[g] = 0;
    queue[0] = g;
    let head = 0;
    let tail = 1;
    let depth = 0;
    while (head < tail) {
      const r = queue[head++];
      const d = dist[r];
      depth = d;
      unrank(r, n, cur, used);
      const b = cur.indexOf(0);
      for (let dir = 0; dir < 4; dir++) {
        const nb = step(b, dir, rows, cols);
        if (nb < 0) continue;
        cur[b] = cur[nb];
        cur[nb] = 0;
        const nr = rank(cur, n);
        if (dist[nr] === UNREACHED) {
          dist[nr] = d + 1;
          queue[tail++] = nr;
        }
        cur[nb] = cur[b];
        cur[b] = 0;
      }
    }
    this.dist = dist;
    this.states = tail;
    this.maxDepth = depth;
  }

  distance(tiles: ArrayLike<number>): number {
    const d = this.dist[this.rankOf(tiles)];
    return d === UNREACHED ? -1 : d;
  }

  solve(tiles: ArrayLike<number>): string {
    const n = this.n;
    const cur = Uint8Array.from(tiles);
    let d = this.dist[this.rankOf(tiles)];
    if (d === UNREACHED) throw new RangeError('slidingTable.solve: unsolvable arrangement');
    let b = cur.indexOf(0);
    let out = '';
    while (d > 0) {
      let moved = false;
      for (let dir = 0; dir < 4 && !moved; dir++) {
        const nb = step(b, dir, this.rows, this.cols);
        if (nb < 0) continue;
        cur[b] = cur[nb];
        cur[nb] = 0;
        if (this.dist[rank(cur, n)] === d - 1) {
          out += LETTERS[dir];
          b = nb;
          d--;
          moved = true;
        } else {
          cur[nb] = cur[b];
          cur[b] = 0;
        }
      }
      // A BFS table always has a neighbour one step closer; anything else is a bug.
      if (!moved) throw new Error('slidingTable.solve: inconsistent table');
    }
    return out;
  }

  /** Rank of a caller's arrangement, after checking it is a permutation of this shape (programmer error otherwise). */
  private rankOf(tiles: ArrayLike<number>): number {
    const n = this.n;
    if (tiles.length !== n) throw new RangeError(`slidingTable: expected ${n} tiles, got ${tiles.length}`);
    let mask = 0;
    for (let i = 0; i < n; i++) {
      const t = tiles[i];
      if (!Number.isInteger(t) || t < 0 || t >= n) throw new RangeError(`slidingTable: bad tile ${t}`);
      mask |= 1 << t;
    }
    if (mask !== (1 << n) - 1) throw new RangeError('slidingTable: tiles are not a permutation');
    return rank(tiles, n);
  }
}

const cache = new Map<string, SlidingTable>();

/** True for the shapes {@link slidingTable} supports: both sides ≥ 2 and at most 9 cells. */
export function hasSlidingTable(rows: number, cols: number): boolean {
  return Number.isInteger(rows) && Number.isInteger(cols) && rows >= 2 && cols >= 2 && rows * cols <= 9;
}

/**
 * The exact distance table for an R×C board of at most 9 cells, built by one BFS on first use and cached.
 * Throws RangeError for larger shapes (a programmer error: check {@link hasSlidingTable}).
 */
export function slidingTable(rows: number, cols: number): SlidingTable {
  if (!hasSlidingTable(rows, cols)) throw new RangeError(`slidingTable: no table for ${rows}x${cols} (at most 9 cells)`);
  const key = `${rows}x${cols}`;
  let t = cache.get(key);
  if (!t) {
    t = new Table(rows, cols);
    cache.set(key, t);
  }
  return t;
}
