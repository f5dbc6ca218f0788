import type { Board } from './board.ts';
import { DIR_LETTERS, INVERSE_DIR } from './board.ts';
import type { SearchStatus } from './ida-search.ts';
import type { PdbHeuristic } from './pdb-heuristic.ts';
import { rankAt } from './pdb-rank.ts';

/**
 * IdaSearch (ida-search.ts) with the pattern-database update written into its inner loop: the same
 * iterations, the same children in the same order, the same first solution and node count, without a
 * method call per node. TurboFan does not inline PdbHeuristic.move into the generic loop (too big), and
 * the call, its field loads and its undo bookkeeping were about half of the 4×4 search's time.
 *
 * Per child: the moved tile's pattern is re-ranked in the normal view and looked up; only when that sum
 * alone leaves the child within the bound is the reflected view updated too (most children are cut off by
 * the first lookup). The undo stack keeps, per depth, both sums and per view the slot and its old cell and
 * value (-1: the reflected view was not touched).
 */
export class PdbIdaSearch {
  /** Nodes generated so far (heuristic evaluations), over all iterations. */
  nodes = 0;
  /** Current f bound; after 'found' it equals the solution length. */
  bound: number;
  /** Completed iterations. */
  iterations = 0;
  /** As IdaSearch.stopAtBound: `run` returns before an iteration would start at this bound or above. */
  stopAtBound = Infinity;

  private readonly neighbor: Int16Array;
  private readonly h: PdbHeuristic;
  private readonly tiles: Uint8Array;
  private blank: number;
  private depth = 0;
  private nextBound = Infinity;
  private path = new Uint8Array(256);
  private nextDir = new Uint8Array(257);
  private stack = new Int32Array(6 * 256);
  private sum: number;
  private rsum: number;
  private status: SearchStatus = 'running';

  constructor(board: Board, start: ArrayLike<number>, heuristic: PdbHeuristic) {
    this.neighbor = board.neighbor;
    this.h = heuristic;
    this.tiles = Uint8Array.from(start);
    this.blank = this.tiles.indexOf(0);
    this.bound = heuristic.reset(this.tiles);
    const { sum, rsum } = heuristic.layout();
    this.sum = sum;
    this.rsum = rsum;
    if (this.bound === 0) this.status = 'found';
  }

  /** The solution as a blank-move string (valid once `run` returned 'found'). */
  solution(): string {
    let s = '';
    for (let i = 0; i < this.depth; i++) s += DIR_LETTERS[this.path[i]];
    return s;
  }

  /**
   * Explores about `budget` more nodes; returns 'found', 'exhausted' (no solution) or 'running'. The
   * heuristic's arrays are this search's until it is done: another search on the same heuristic resets them.
   */
  run(budget: number): SearchStatus {
    if (this.status !== 'running') return this.status;
    const { n, tables, group, slot, rgroup, rslot, tileCell, rTileCell, offset, size, weights, cells, rcells, slotGroup, val, rval, tr, mapped } =
      this.h.layout();
    const tiles = this.tiles;
    const nb = this.neighbor;
    let path = this.path;
    let nextDir = this.nextDir;
    let st = this.stack;
    let d = this.depth;
    let blank = this.blank;
    let bound = this.bound;
    let nextBound = this.nextBound;
    let sum = this.sum;
    let rsum = this.rsum;
    let nodes = 0;
    let status: SearchStatus = 'running';
    for (;;) {
      const dir = nextDir[d];
      if (dir === 4) {
        if (d === 0) {
          this.iterations++;
          if (nextBound === Infinity) {
            status = 'exhausted';
            break;
          }
          bound = nextBound;
          nextBound = Infinity;
          nextDir[0] = 0;
          if (nodes >= budget || bound >= this.stopAtBound) break;
          continue;
        }
        d--;
        const back = nb[blank * 4 + INVERSE_DIR[path[d]]];
        tiles[blank] = tiles[back];
        tiles[back] = 0;
        blank = back;
        // Undo the move that led to depth d + 1 (always both views: it was expanded).
        const s = d * 6;
        sum = st[s];
        rsum = st[s + 1];
        const ci = st[s + 2];
        cells[ci] = st[s + 3] >> 8;
        val[slotGroup[ci]] = st[s + 3] & 255;
        const ri = st[s + 4];
        rcells[ri] = st[s + 5] >> 8;
        rval[slotGroup[ri]] = st[s + 5] & 255;
        continue;
      }
      nextDir[d] = dir + 1;
      if (d > 0 && dir === INVERSE_DIR[path[d - 1]]) continue;
      const to = nb[blank * 4 + dir];
      if (to < 0) continue;
      const tile = tiles[to];
      nodes++;
      // The tile slides from `to` into the blank's cell: its pattern's rank in the normal view first.
      const g = group[tile];
      const off = offset[g];
      const ci = off + slot[tile];
      const oldCell = cells[ci];
      cells[ci] = mapped ? tileCell[tile * n + blank] : blank;
      const v = tables[g][rankAt(cells, off, size[g], weights)];
      const oldVal = val[g];
      const nsum = sum + v - oldVal;
      // bound - d - 1 is the largest h this child may have and still be expanded.
      const limit = bound - d - 1;
      if (nsum > limit) {
        cells[ci] = oldCell;
        const f = d + 1 + nsum;
        if (f < nextBound) nextBound = f;
        if (nodes >= budget) break;
        continue;
      }
      const rg = rgroup[tile];
      const roff = offset[rg];
      const ri = roff + rslot[tile];
      const oldR = rcells[ri];
      rcells[ri] = mapped ? rTileCell[tile * n + blank] : tr[blank];
      const rv = tables[rg][rankAt(rcells, roff, size[rg], weights)];
      const oldRVal = rval[rg];
      const nrsum = rsum + rv - oldRVal;
      const h = nsum > nrsum ? nsum : nrsum;
      if (h > limit) {
        cells[ci] = oldCell;
        rcells[ri] = oldR;
        const f = d + 1 + h;
        if (f < nextBound) nextBound = f;
        if (nodes >= budget) break;
        continue;
      }
      // Expand: save what the way back restores, then step down.
      const s = d * 6;
      if (s + 6 > st.length) {
        const grown = new Int32Array(st.length * 2);
        grown.set(st);
        st = this.stack = grown;
      }
      st[s] = sum;
      st[s + 1] = rsum;
      st[s + 2] = ci;
      st[s + 3] = (oldCell << 8) | oldVal;
      st[s + 4] = ri;
      st[s + 5] = (oldR << 8) | oldRVal;
      val[g] = v;
      rval[rg] = rv;
      sum = nsum;
      rsum = nrsum;
      tiles[blank] = tile;
      tiles[to] = 0;
      path[d] = dir;
      blank = to;
      d++;
      if (h === 0) {
        status = 'found';
        break;
      }
      if (d >= path.length) {
        const p = new Uint8Array(path.length * 2);
        p.set(path);
        const q = new Uint8Array(path.length * 2 + 1);
        q.set(nextDir);
        path = this.path = p;
        nextDir = this.nextDir = q;
      }
      nextDir[d] = 0;
      if (nodes >= budget) break;
    }
    this.nodes += nodes;
    this.depth = d;
    this.blank = blank;
    this.bound = bound;
    this.nextBound = nextBound;
    this.sum = sum;
    this.rsum = rsum;
    this.status = status;
    return status;
  }
}
