import { placements, popcount32 as popcount, rankWeights } from './pdb-rank.ts';
import { binomials, ColexTable, geometry, lowest, regionTable } from './pdb-regions.ts';

/** Progress of a build. */
export interface BuildProgress {
  readonly depth: number;
  /** Pattern placements whose value is known so far, and how many there are (the table's length). */
  readonly done: number;
  readonly total: number;
}

/** Largest board the builder takes: a cell set must fit in a 31-bit integer mask. */
export const BUILD_MAX_CELLS = 25;

/**
 * Builds the additive pattern database of `tiles` on an R×C board (R·C ≤ 25, at most 7 tiles): for every
 * placement of the pattern tiles (ranked by pdb-rank.ts, tile order as given) the fewest moves OF PATTERN
 * TILES that bring them home, the other tiles being indistinguishable. Because only pattern-tile moves are
 * counted, the values of disjoint patterns add up to an admissible heuristic (Korf & Felner 2002).
 *
 * Which tiles can move depends on where the blank is, but only up to the connected region of non-pattern
 * cells it stands in: inside that region it walks for free. So an abstract state is a placement plus one
 * region, named by its lowest cell, and a plain breadth-first search over those states (each edge one
 * pattern-tile move into the region, the blank then standing where the tile was) gives the same values as
 * a 0-1 search over every blank cell, with an order of magnitude fewer states: on most placements the free
 * cells form one region. Cell sets are bit masks, a region is grown by shifting masks, and a state is
 * queued as its packed cells plus its region's cell. The result keeps, per placement, the minimum over its
 * regions, one byte each: the file format of pdb-cache.ts, whichever way it was computed.
 *
 * Memory while building: four bytes per placement (the states seen and the depth) and two queues of five
 * bytes per state of a layer; for 6 tiles on 5×5, about 0.8 GB.
 */
export function buildPatternDb(rows: number, cols: number, tiles: readonly number[]): Uint8Array {
  const steps = buildPatternDbSteps(rows, cols, tiles);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** Where a placement's word keeps its depth (bits 24–30) and the flag saying it is known (bit 31). */
const DEPTH_SHIFT = 24;
const SETTLED = 2 ** 31;

/**
 * The search itself. Its hot loop uses no closures, so V8 optimizes it the same way for every pattern built
 * in one process (closures recreated per build made later builds half as fast).
 */
class PatternBfs {
  done = 1;
  level = 0;
  private readonly n: number;
  private readonly k: number;
  private readonly bits: number;
  private readonly weights: Int32Array;
  private readonly colex: ColexTable;
  private readonly regions: Int32Array;
  private readonly neighbors: Int32Array;
  /**
   * Per placement, one word: the bits of the states seen (placement, region named by its lowest cell, by
   * that cell's rank among the free cells), and its depth in the top byte once known. One word, so that a
   * move costs one cache miss, not two: the search is bound by memory latency.
   */
  private readonly info: Uint32Array;
  private readonly pos: Uint8Array;
  private cur: StateQueue;
  private next: StateQueue;
  private head = 0;

  constructor(rows: number, cols: number, tiles: readonly number[], bits: number, total: number) {
    const g = geometry(rows, cols);
    const n = (this.n = g.n);
    const k = (this.k = tiles.length);
    this.bits = bits;
    this.weights = rankWeights(n, k);
    const binom = binomials(n, k);
    this.colex = new ColexTable(n, k, binom);
    this.regions = regionTable(g, k, binom);
    this.neighbors = g.neighbors;
    this.info = new Uint32Array(total);
    this.pos = new Uint8Array(k);
    this.cur = new StateQueue();
    this.next = new StateQueue();
    let occ = 0;
    for (let i = 0; i < k; i++) {
      this.pos[i] = tiles[i] - 1;
      occ |= 1 << this.pos[i];
    }
    const start = lowest(this.regions[this.colex.rank(occ) * n + n - 1]);
    const p = this.rank();
    this.info[p] = (1 << (start - popcount(occ & ((1 << start) - 1)))) | SETTLED;
    this.cur.push(this.pack(), start);
  }

  /** Expands up to `budget` states; false once the search is over. */
  step(budget: number): boolean {
    const { n, k, bits, info, regions, neighbors, colex, pos } = this;
    const cellMask = (1 << bits) - 1;
    for (let done = 0; done < budget; done++) {
      if (this.head === this.cur.length) {
        const t = this.cur;
        this.cur = this.next;
        this.next = t;
        t.length = 0;
        this.head = 0;
        if (this.cur.length === 0) return false;
        if (++this.level >= 127) throw new Error('pattern database depth overflow');
      }
      const cur = this.cur;
      const s0 = cur.cells[this.head];
      let occ = 0;
      for (let i = 0, s = s0; i < k; i++, s >>>= bits) {
        pos[i] = s & cellMask;
        occ |= 1 << pos[i];
      }
      const region = regions[colex.rank(occ) * n + cur.blank[this.head++]];
      const d1 = this.level + 1;
      for (let i = 0; i < k; i++) {
        const from = pos[i];
        const shift = i * bits;
        const cleared = s0 & ~(cellMask << shift);
        let into = neighbors[from] & region;
        while (into !== 0) {
          const to = lowest(into);
          into &= into - 1;
          // Tile i slides from `from` into the blank's region at `to`; the blank is left on `from`.
          pos[i] = to;
          const occ2 = (occ & ~(1 << from)) | (1 << to);
          const c2 = lowest(regions[colex.rank(occ2) * n + from]);
          const p2 = this.rank();
          const word = info[p2];
          const bit = 1 << (c2 - popcount(occ2 & ((1 << c2) - 1)));
          if ((word & bit) === 0) {
            if (word < SETTLED) {
              info[p2] = word | bit | SETTLED | (d1 << DEPTH_SHIFT);
              this.done++;
            } else info[p2] = word | bit;
            this.next.push(cleared | (to << shift), c2);
          }
          pos[i] = from;
        }
      }
    }
    return true;
  }

  /** The table: each placement's depth. */
  table(): Uint8Array {
    const out = new Uint8Array(this.info.length);
    for (let p = 0; p < out.length; p++) out[p] = (this.info[p] >>> DEPTH_SHIFT) & 127;
    return out;
  }

  private rank(): number {
    const { pos, weights, k } = this;
    let used = 0;
    let idx = 0;
    for (let i = 0; i < k; i++) {
      const p = pos[i];
      idx += (p - popcount(used & ((1 << p) - 1))) * weights[i];
      used |= 1 << p;
    }
    return idx;
  }

  private pack(): number {
    let s = 0;
    for (let i = this.k - 1; i >= 0; i--) s = (s << this.bits) | this.pos[i];
    return s;
  }
}

/** A growable queue of states: packed cells (Uint32) and the blank region's lowest cell (Uint8). */
class StateQueue {
  cells = new Uint32Array(1 << 12);
  blank = new Uint8Array(1 << 12);
  length = 0;

  push(cells: number, blank: number): void {
    if (this.length === this.cells.length) {
      const c = new Uint32Array(this.length * 2);
      c.set(this.cells);
      this.cells = c;
      const b = new Uint8Array(this.length * 2);
      b.set(this.blank);
      this.blank = b;
    }
    this.cells[this.length] = cells;
    this.blank[this.length++] = blank;
  }
}

/**
 * {@link buildPatternDb} in slices: yields its progress about every `slice` expanded states, so a bot can
 * build on its main thread between event-loop turns and stay responsive to the referee, and returns the table.
 */
export function* buildPatternDbSteps(
  rows: number,
  cols: number,
  tiles: readonly number[],
  slice = 1 << 16,
): Generator<BuildProgress, Uint8Array, void> {
  const n = rows * cols;
  const k = tiles.length;
  const bits = n <= 16 ? 4 : 5;
  if (n > BUILD_MAX_CELLS || k < 1 || k > 7 || k > n - 2 || k * bits > 32) {
    throw new RangeError(`pattern of ${k} tiles on ${rows}x${cols} not supported`);
  }
  for (const t of tiles) if (!Number.isInteger(t) || t < 1 || t >= n) throw new RangeError(`bad pattern tile ${t}`);
  if (new Set(tiles).size !== k) throw new RangeError('pattern tiles repeat');
  const total = placements(n, k);
  if (total >= 2 ** 31) throw new RangeError(`pattern of ${k} tiles on ${rows}x${cols} is too big to build`);
  const bfs = new PatternBfs(rows, cols, tiles, bits, total);
  while (bfs.step(slice)) yield { depth: bfs.level, done: bfs.done, total };
  return bfs.table();
}
