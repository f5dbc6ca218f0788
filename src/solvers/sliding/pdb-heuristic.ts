import type { Board } from './board.ts';
import type { IncrementalHeuristic } from './heuristic.ts';
import { rankAt, rankWeights } from './pdb-rank.ts';

/**
 * One pattern: its tiles (in rank order) and its table from pdb-build.ts. With `cellMap`, the table was
 * built for another pattern that a symmetry of the board maps this one onto: the tile in slot s at board
 * cell c is read as the table's slot-s tile at cell cellMap[c] (pdb-set.ts makes these).
 */
export interface PatternTable {
  readonly tiles: readonly number[];
  readonly table: Uint8Array;
  readonly cellMap?: Uint8Array;
}

/**
 * A PdbHeuristic's arrays as they stand after its last reset, for a search that does the heuristic's
 * incremental update inline (pdb-ida-search.ts) instead of calling {@link PdbHeuristic.move} per node.
 */
export interface PdbLayout {
  readonly n: number;
  readonly tables: readonly Uint8Array[];
  readonly group: Int8Array;
  readonly slot: Int8Array;
  readonly rgroup: Int8Array;
  readonly rslot: Int8Array;
  readonly tileCell: Uint8Array;
  readonly rTileCell: Uint8Array;
  readonly offset: Int32Array;
  readonly size: Int32Array;
  readonly weights: Int32Array;
  readonly cells: Uint8Array;
  readonly rcells: Uint8Array;
  readonly slotGroup: Int8Array;
  readonly val: Int32Array;
  readonly rval: Int32Array;
  readonly tr: Uint8Array;
  readonly mapped: boolean;
  readonly sum: number;
  readonly rsum: number;
}

/**
 * Additive disjoint pattern databases on a square board, with the reflection lookup: the transpose about the
 * main diagonal maps the goal onto itself (tile t's home (r,c) becomes the home of the tile at (c,r)), so
 * reading the same tables on the reflected state gives a second admissible bound; h = max of the two sums.
 *
 * Incremental: a move changes one tile, hence one pattern in each of the two views; only those two ranks are
 * recomputed (k popcount steps each), and the undo stack restores their cells and values.
 */
export class PdbHeuristic implements IncrementalHeuristic {
  readonly name: string;
  private readonly n: number;
  private readonly tables: Uint8Array[];
  /** Per tile: its pattern and its slot in that pattern; for the reflected view, of the reflected tile. */
  private readonly group: Int8Array;
  private readonly slot: Int8Array;
  private readonly rgroup: Int8Array;
  private readonly rslot: Int8Array;
  /** Per tile t, cell c: the table cell it is read at, tileCell[t·n + c]; for the reflected view, rTileCell. */
  private readonly tileCell: Uint8Array;
  private readonly rTileCell: Uint8Array;
  /** Pattern g's slots live at cells[offset[g] .. offset[g] + size[g]); same layout for the reflected view. */
  private readonly offset: Int32Array;
  private readonly size: Int32Array;
  private readonly weights: Int32Array;
  private readonly cells: Uint8Array;
  /** The pattern each slot belongs to. */
  private readonly slotGroup: Int8Array;
  private readonly rcells: Uint8Array;
  private readonly val: Int32Array;
  private readonly rval: Int32Array;
  private sum = 0;
  private rsum = 0;
  /** Some pattern is read through a symmetry: cells go through tileCell in the normal view too. */
  private readonly mapped: boolean;
  private readonly tr: Uint8Array;
  /** Undo stack, 6 ints per depth: old sum, old rsum, then per view the slot and (old table cell << 8 | old value). */
  private stack: Int32Array;

  constructor(board: Board, patterns: readonly PatternTable[], reflect = true) {
    const n = board.size;
    if (board.rows !== board.cols && reflect) throw new RangeError('reflection needs a square board');
    this.n = n;
    const shared = new Set(patterns.map((p) => p.table)).size < patterns.length ? ', shared by symmetry' : '';
    this.name = `pdb ${patterns.map((p) => p.tiles.length).join('-')}${reflect ? ' + reflection' : ''}${shared}`;
    this.tables = patterns.map((p) => p.table);
    this.group = new Int8Array(n).fill(-1);
    this.slot = new Int8Array(n).fill(-1);
    const tr = (this.tr = new Uint8Array(n));
    for (let c = 0; c < n; c++) tr[c] = reflect ? board.colOf[c] * board.cols + board.rowOf[c] : c;
    this.mapped = patterns.some((p) => p.cellMap !== undefined);
    const g = patterns.length;
    this.offset = new Int32Array(g);
    this.size = new Int32Array(g);
    let total = 0;
    const weightRows: Int32Array[] = [];
    patterns.forEach((p, i) => {
      this.offset[i] = total;
      this.size[i] = p.tiles.length;
      total += p.tiles.length;
      weightRows.push(rankWeights(n, p.tiles.length));
      if (p.cellMap && p.cellMap.length !== n) throw new RangeError('cell map of the wrong size');
      p.tiles.forEach((t, s) => {
        if (this.group[t] !== -1) throw new RangeError(`tile ${t} in two patterns`);
        this.group[t] = i;
        this.slot[t] = s;
      });
    });
    for (let t = 1; t < n; t++) if (this.group[t] < 0) throw new RangeError(`tile ${t} is in no pattern`);
    this.weights = new Int32Array(total);
    weightRows.forEach((w, i) => this.weights.set(w, this.offset[i]));
    // The reflected view places tile refl(t) on cell tr(cell of t), where refl(t) is the tile whose home is
    // the transpose of t's home; track it by the ORIGINAL tile t for cheap incremental updates.
    this.rgroup = new Int8Array(n).fill(-1);
    this.rslot = new Int8Array(n).fill(-1);
    this.tileCell = new Uint8Array(n * n);
    this.rTileCell = new Uint8Array(n * n);
    for (let t = 1; t < n; t++) {
      const u = tr[t - 1] + 1;
      this.rgroup[t] = this.group[u];
      this.rslot[t] = this.slot[u];
      const map = patterns[this.group[t]].cellMap;
      const rmap = patterns[this.group[u]].cellMap;
      for (let c = 0; c < n; c++) {
        this.tileCell[t * n + c] = map ? map[c] : c;
        this.rTileCell[t * n + c] = rmap ? rmap[tr[c]] : tr[c];
      }
    }
    this.cells = new Uint8Array(total);
    this.slotGroup = new Int8Array(total);
    for (let i = 0; i < g; i++) this.slotGroup.fill(i, this.offset[i], this.offset[i] + this.size[i]);
    this.rcells = new Uint8Array(total);
    this.val = new Int32Array(g);
    this.rval = new Int32Array(g);
    this.stack = new Int32Array(6 * 256);
  }

  /** The arrays and sums after the last {@link reset}, shared, not copied (see {@link PdbLayout}). */
  layout(): PdbLayout {
    const { n, tables, group, slot, rgroup, rslot, tileCell, rTileCell, offset, size, weights, cells, rcells, slotGroup, val, rval, tr, mapped, sum, rsum } = this;
    return { n, tables, group, slot, rgroup, rslot, tileCell, rTileCell, offset, size, weights, cells, rcells, slotGroup, val, rval, tr, mapped, sum, rsum };
  }

  private rankOf(cells: Uint8Array, g: number): number {
    return rankAt(cells, this.offset[g], this.size[g], this.weights);
  }

  reset(tiles: Uint8Array): number {
    const n = this.n;
    for (let c = 0; c < n; c++) {
      const t = tiles[c];
      if (t === 0) continue;
      this.cells[this.offset[this.group[t]] + this.slot[t]] = this.tileCell[t * n + c];
      this.rcells[this.offset[this.rgroup[t]] + this.rslot[t]] = this.rTileCell[t * n + c];
    }
    this.sum = 0;
    this.rsum = 0;
    for (let g = 0; g < this.tables.length; g++) {
      this.sum += this.val[g] = this.tables[g][this.rankOf(this.cells, g)];
      this.rsum += this.rval[g] = this.tables[g][this.rankOf(this.rcells, g)];
    }
    return this.sum > this.rsum ? this.sum : this.rsum;
  }

  move(_tiles: Uint8Array, tile: number, from: number, to: number, depth: number, limit = Infinity): number {
    const s = depth * 6;
    if (s + 6 > this.stack.length) {
      const grown = new Int32Array(this.stack.length * 2);
      grown.set(this.stack);
      this.stack = grown;
    }
    const st = this.stack;
    st[s] = this.sum;
    st[s + 1] = this.rsum;
    const g = this.group[tile];
    const ci = this.offset[g] + this.slot[tile];
    st[s + 2] = ci;
    const mapped = this.mapped;
    st[s + 3] = ((mapped ? this.cells[ci] : from) << 8) | this.val[g];
    this.cells[ci] = mapped ? this.tileCell[tile * this.n + to] : to;
    const v = this.tables[g][this.rankOf(this.cells, g)];
    this.sum += v - this.val[g];
    this.val[g] = v;
    // Most children of the IDA* inner loop are cut off: when this view alone exceeds the limit, h does too,
    // and the reflected view (a second rank and a second table read, often a cache miss) is not needed.
    if (this.sum > limit) {
      st[s + 4] = -1;
      return this.sum;
    }
    const rg = this.rgroup[tile];
    const ri = this.offset[rg] + this.rslot[tile];
    st[s + 4] = ri;
    st[s + 5] = (this.rcells[ri] << 8) | this.rval[rg];
    this.rcells[ri] = mapped ? this.rTileCell[tile * this.n + to] : this.tr[to];
    const rv = this.tables[rg][this.rankOf(this.rcells, rg)];
    this.rsum += rv - this.rval[rg];
    this.rval[rg] = rv;
    return this.sum > this.rsum ? this.sum : this.rsum;
  }

  undo(depth: number): void {
    const st = this.stack;
    const s = depth * 6;
    this.sum = st[s];
    this.rsum = st[s + 1];
    const ci = st[s + 2];
    this.cells[ci] = st[s + 3] >> 8;
    this.val[this.slotGroup[ci]] = st[s + 3] & 255;
    const ri = st[s + 4];
    if (ri < 0) return; // the move stopped before the reflected view
    this.rcells[ri] = st[s + 5] >> 8;
    this.rval[this.slotGroup[ri]] = st[s + 5] & 255;
  }
}
