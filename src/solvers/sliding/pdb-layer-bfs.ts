import { placements, popcount32 as popcount, rankCells, rankWeights } from './pdb-rank.ts';
import { binomials, ColexTable, geometry, lowest, regionTable } from './pdb-regions.ts';

/**
 * The pattern-database search of pdb-build.ts (states = a placement of the pattern tiles plus the region of
 * free cells the blank stands in; one pattern-tile move per edge) without queues, for patterns too big for
 * them: the 8-tile table of the 4×4 has 518,918,400 placements, about a billion states.
 *
 * Per placement it keeps three bit sets of its regions (a region is named by its lowest cell's rank among
 * the free cells, so a 4×4 pattern of 8 tiles needs 8 bits: one byte) — regions seen, regions in the
 * current layer, regions in the next — and the depth byte, the table itself. A layer is a scan of the
 * current sets; expanding it fills the next. Nothing grows, so the memory is fixed up front: 4 bytes per
 * placement with 8 tiles on 4×4 (2.1 GB), 7 bytes per placement for 6 tiles (bit sets of 16 bits).
 *
 * The arrays may live in SharedArrayBuffers, expanded by several threads at once on disjoint ranges of the
 * current layer (src/solvers/tables/layer-build.ts): a bit is then set with Atomics.or, whose old value says which thread
 * found the state first, so every state enters the next layer once and its placement's depth is written once.
 */

/** Bit sets of regions per placement: 8, 16 or 32 bits wide. */
export type RegionSets = Uint8Array | Uint16Array | Uint32Array;

/** The arrays of one search, shareable between threads. */
export interface LayerState {
  readonly depth: Uint8Array;
  readonly seen: RegionSets;
  /** The layers' bit sets: `sets[level & 1]` is the current layer, the other the next. */
  readonly sets: readonly [RegionSets, RegionSets];
}

/** Bytes of one region bit set for a pattern of k tiles on n cells (0 when more than 32 regions could exist). */
export function regionSetBytes(n: number, k: number): number {
  const free = n - k;
  return free <= 8 ? 1 : free <= 16 ? 2 : free <= 32 ? 4 : 0;
}

/** Allocates a search's arrays (shared when `shared`) and seeds them with the goal placement at depth 0. */
export function newLayerState(rows: number, cols: number, tiles: readonly number[], shared: boolean): LayerState {
  const n = rows * cols;
  const total = placements(n, tiles.length);
  const width = regionSetBytes(n, tiles.length);
  const make = (bytes: number): ArrayBuffer | SharedArrayBuffer => (shared ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes));
  const sets = (): RegionSets => {
    const buf = make(total * width);
    return width === 1 ? new Uint8Array(buf) : width === 2 ? new Uint16Array(buf) : new Uint32Array(buf);
  };
  const state: LayerState = { depth: new Uint8Array(make(total)), seen: sets(), sets: [sets(), sets()] };
  const bfs = new LayerExpander(rows, cols, tiles, state);
  bfs.seed();
  return state;
}

/** Checks a pattern the layered search can build; throws a RangeError otherwise (a programmer error). */
export function checkLayerPattern(rows: number, cols: number, tiles: readonly number[]): void {
  const n = rows * cols;
  const k = tiles.length;
  if (n > 16 || k < 1 || k > 8 || k > n - 2) throw new RangeError(`pattern of ${k} tiles on ${rows}x${cols} not supported by the layered build`);
  for (const t of tiles) if (!Number.isInteger(t) || t < 1 || t >= n) throw new RangeError(`bad pattern tile ${t}`);
  if (new Set(tiles).size !== k) throw new RangeError('pattern tiles repeat');
}

/** Expands ranges of one layer; one per thread. Its hot loop uses no closures (see pdb-build.ts). */
export class LayerExpander {
  readonly total: number;
  /** States put into the next layer by this expander, over all calls (0 after a layer: the search is over). */
  queued = 0;
  private readonly n: number;
  private readonly k: number;
  private readonly all: number;
  private readonly weights: Int32Array;
  private readonly colex: ColexTable;
  private readonly regions: Int32Array;
  private readonly neighbors: Int32Array;
  private readonly pos: Uint8Array;
  private readonly goal: Uint8Array;
  private readonly atomic: boolean;

  constructor(
    rows: number,
    cols: number,
    tiles: readonly number[],
    private readonly state: LayerState,
  ) {
    checkLayerPattern(rows, cols, tiles);
    const g = geometry(rows, cols);
    const n = (this.n = g.n);
    const k = (this.k = tiles.length);
    this.all = g.all;
    this.total = placements(n, k);
    this.weights = rankWeights(n, k);
    const binom = binomials(n, k);
    this.colex = new ColexTable(n, k, binom);
    this.regions = regionTable(g, k, binom);
    this.neighbors = g.neighbors;
    this.pos = new Uint8Array(k);
    this.goal = Uint8Array.from(tiles, (t) => t - 1);
    this.atomic = state.depth.buffer instanceof SharedArrayBuffer;
  }

  /** Marks the goal placement, blank in the region of its home cell (the last), as the layer-0 state. */
  seed(): void {
    const { n, pos, goal } = this;
    pos.set(goal);
    let occ = 0;
    for (let i = 0; i < this.k; i++) occ |= 1 << pos[i];
    const start = lowest(this.regions[this.colex.rank(occ) * n + n - 1]);
    const bit = 1 << (start - popcount(occ & ((1 << start) - 1)));
    const p = rankCells(this.pos, this.k, this.weights);
    this.state.seen[p] = bit;
    this.state.sets[0][p] = bit;
    this.state.depth[p] = 0;
  }

  /**
   * Expands the states of layer `level` whose placements are in [lo, hi) into layer level + 1; returns how
   * many placements got their depth (were first reached) here.
   */
  expand(level: number, lo: number, hi: number): number {
    const { n, k, all, regions, neighbors, colex, pos, weights } = this;
    const { depth, seen } = this.state;
    const cur = this.state.sets[level & 1];
    const next = this.state.sets[(level + 1) & 1];
    const atomic = this.atomic;
    const d1 = level + 1;
    let settled = 0;
    for (let p = lo; p < hi; p++) {
      const here = cur[p];
      if (here === 0) continue;
      // Unrank p: item i's digit is its cell's rank among the cells items 0..i−1 left free.
      let rest = p;
      let occ = 0;
      for (let i = 0; i < k; i++) {
        const w = weights[i];
        const digit = (rest / w) | 0;
        rest -= digit * w;
        let m = all & ~occ;
        for (let j = 0; j < digit; j++) m &= m - 1;
        const c = lowest(m);
        pos[i] = c;
        occ |= 1 << c;
      }
      const base = colex.rank(occ) * n;
      const free = all & ~occ;
      for (let bits = here; bits !== 0; bits &= bits - 1) {
        // The region whose lowest cell is the free cell of rank `r`.
        const r = lowest(bits);
        let m = free;
        for (let j = 0; j < r; j++) m &= m - 1;
        const region = regions[base + lowest(m)];
        for (let i = 0; i < k; i++) {
          const from = pos[i];
          let into = neighbors[from] & region;
          while (into !== 0) {
            const to = lowest(into);
            into &= into - 1;
            // Tile i slides from `from` into the blank's region at `to`; the blank is left on `from`.
            pos[i] = to;
            const occ2 = (occ & ~(1 << from)) | (1 << to);
            const c2 = lowest(regions[colex.rank(occ2) * n + from]);
            const bit = 1 << (c2 - popcount(occ2 & ((1 << c2) - 1)));
            let p2 = 0;
            let used = 0;
            for (let j = 0; j < k; j++) {
              const c = pos[j];
              p2 += (c - popcount(used & ((1 << c) - 1))) * weights[j];
              used |= 1 << c;
            }
            pos[i] = from;
            if ((seen[p2] & bit) !== 0) continue;
            let old: number;
            if (atomic) {
              old = Atomics.or(seen, p2, bit);
              if ((old & bit) !== 0) continue; // another thread got there first
              Atomics.or(next, p2, bit);
            } else {
              old = seen[p2];
              seen[p2] = old | bit;
              next[p2] |= bit;
            }
            this.queued++;
            if (old === 0) {
              depth[p2] = d1;
              settled++;
            }
          }
        }
      }
    }
    return settled;
  }
}

/** Progress of a layered build: placements whose depth is known, of all, after a layer (or part of one). */
export interface LayerProgress {
  readonly depth: number;
  readonly done: number;
  readonly total: number;
}

/**
 * The whole layered search on this thread, yielding after every layer: the reference the threaded build
 * (src/solvers/tables/layer-build.ts) is tested against, and fast enough for tables up to 6 tiles on 4×4.
 */
export function* buildLayered(rows: number, cols: number, tiles: readonly number[]): Generator<LayerProgress, Uint8Array, void> {
  const state = newLayerState(rows, cols, tiles, false);
  const bfs = new LayerExpander(rows, cols, tiles, state);
  let done = 1;
  for (let level = 0; ; level++) {
    if (level >= 255) throw new Error('pattern database depth overflow');
    const before = bfs.queued;
    const found = bfs.expand(level, 0, bfs.total);
    state.sets[level & 1].fill(0);
    if (bfs.queued === before) return state.depth;
    done += found;
    yield { depth: level + 1, done, total: bfs.total };
  }
}
