import type { Board } from '../../src/solvers/sliding/board.ts';
import { DIR_LETTERS, INVERSE_DIR } from '../../src/solvers/sliding/board.ts';
import { allTiles, ANY_TILE, countedConflict, countedManhattanLc } from './counted-lines.ts';
import type { SearchStatus } from '../../src/solvers/sliding/ida-search.ts';

/**
 * How the estimate is inflated: f = g + φ(h). `sqrt` is the seed's h·√h (5×5), `square` its h·h (bigger
 * boards), `linear` the classic weighted A*, f = g + w·h.
 */
export type Weighting = { readonly kind: 'linear'; readonly w: number } | { readonly kind: 'sqrt' } | { readonly kind: 'square' };

/** Human text for a weighting, for notes: "h·√h", "h·h", "2.5·h". */
export function describeWeighting(w: Weighting): string {
  return w.kind === 'sqrt' ? 'h·√h' : w.kind === 'square' ? 'h·h' : `${w.w}·h`;
}

/**
 * Weighted best-first search (weighted A* without reopening) with Manhattan + linear conflict, for boards too
 * big for optimal search; h may count only some tiles (a sub-goal, staged-search.ts), and then tiles that do
 * not count are stored as one "any" tile, so states differing only in them are one state.
 *
 * Why not weighted IDA*, as the seed did: with φ(h) = h·h every move that raises h by one costs about 2h in f,
 * so each new IDA* bound admits only a sliver more of the tree and the search re-walks everything each time,
 * while within a bound a descent earns so much slack that the depth-first search wanders thousands of moves
 * deep (measured on 10×10: not even the first line placed in 60 s). Best-first keeps a closed set instead, so
 * each state is expanded once, and the node cap bounds memory; it behaves like greedy search with g as a
 * tie-breaker, which finds (long, non-optimal) solutions quickly.
 *
 * States are stored in one flat Uint8Array pool with open-addressing hashing; open is a binary heap keyed by
 * f, ties broken towards smaller h. Steppable like {@link IdaSearch}.
 */
export class WeightedSearch {
  /** Nodes generated (states stored). */
  nodes = 0;
  /** Why the search stopped without a solution, when it did. */
  failure = '';
  /** The stored state closest to the goal by h (ties: fewer moves), where a restart commits to. */
  bestId = 0;

  private readonly board: Board;
  private readonly n: number;
  private readonly cap: number;
  private readonly phi: (h: number) => number;
  private pool: Uint8Array;
  private parent: Int32Array;
  private dir: Uint8Array;
  private g: Int32Array;
  private h: Int32Array;
  private blank: Uint8Array;
  private hash: Int32Array;
  private hashMask: number;
  /** States the arrays hold now; doubled up to `cap` as needed, so small searches stay cheap. */
  private room: number;
  private heap: Int32Array;
  private heapKey: Float64Array;
  private heapLen = 0;
  private readonly scratch: Uint8Array;
  private readonly counted: Uint8Array;
  private readonly lis: Int32Array;
  private goal = -1;
  private status: SearchStatus = 'running';

  /**
   * `cap` = most states kept; at the cap the arrays take cap·(cells + ~14) bytes plus ≤ 16·cap of hash table.
   * `counted`: the tiles h counts (default all: the goal); with fewer, the search stops when those are home.
   */
  constructor(board: Board, start: ArrayLike<number>, weighting: Weighting, cap: number, counted = allTiles(board.size)) {
    this.counted = counted;
    this.board = board;
    this.n = board.size;
    this.cap = cap;
    this.phi =
      weighting.kind === 'sqrt' ? (h) => h * Math.sqrt(h) : weighting.kind === 'square' ? (h) => h * h : ((w) => (h: number) => w * h)(weighting.w);
    this.room = Math.min(cap, 1 << 14);
    this.pool = new Uint8Array(this.room * this.n);
    this.parent = new Int32Array(this.room);
    this.dir = new Uint8Array(this.room);
    this.g = new Int32Array(this.room);
    this.h = new Int32Array(this.room);
    this.blank = new Uint8Array(this.room);
    // A power of two at least twice the room: the probes wrap with a mask (a cap below 2^14 once gave a
    // mask with holes, and a probe that never found a free slot).
    let slots = 1;
    while (slots < this.room * 2) slots <<= 1;
    this.hash = new Int32Array(slots).fill(-1);
    this.hashMask = slots - 1;
    this.heap = new Int32Array(1024);
    this.heapKey = new Float64Array(1024);
    this.scratch = new Uint8Array(this.n);
    this.lis = new Int32Array(Math.max(board.rows, board.cols));
    // Tiles that do not count are written as one "any" tile: states that differ only in them are the same
    // state for this search (the sub-goal cannot tell them apart), which keeps its plateaus small.
    for (let c = 0; c < this.n; c++) this.scratch[c] = start[c] === 0 || counted[start[c]] === 1 ? start[c] : ANY_TILE;
    const h0 = countedManhattanLc(board, this.scratch, counted);
    const id = this.insert(this.scratch, this.hashOf(this.scratch), -1, 4, 0, h0, this.scratch.indexOf(0));
    if (h0 === 0) {
      this.goal = id;
      this.status = 'found';
    } else this.push(id);
  }

  /** The solution as a blank-move string (valid once `run` returned 'found'). */
  solution(): string {
    return this.pathTo(this.goal);
  }

  /** The moves from the start to stored state `id`. */
  pathTo(id: number): string {
    const dirs: string[] = [];
    for (; id > 0; id = this.parent[id]) dirs.push(DIR_LETTERS[this.dir[id]]);
    return dirs.reverse().join('');
  }

  /** Expands about `budget` more nodes; 'exhausted' means the node cap was hit (see `failure`). */
  run(budget: number): SearchStatus {
    if (this.status !== 'running') return this.status;
    const { board, n, scratch, counted, lis } = this;
    const nb = board.neighbor;
    const cols = board.cols;
    for (let done = 0; done < budget; done++) {
      if (this.heapLen === 0) {
        this.failure = 'open list empty (unsolvable?)';
        return (this.status = 'exhausted');
      }
      const id = this.pop();
      const base = id * n;
      const pool = this.pool; // re-read: insert() may have grown it
      for (let i = 0; i < n; i++) scratch[i] = pool[base + i];
      const blank = this.blank[id];
      const gc = this.g[id] + 1;
      const last = this.dir[id];
      for (let d = 0; d < 4; d++) {
        if (last < 4 && d === INVERSE_DIR[last]) continue;
        const to = nb[blank * 4 + d];
        if (to < 0) continue;
        const tile = scratch[to];
        const home = tile - 1;
        // The tile slides from `to` into `blank`: Manhattan changes by ±1, and the conflicts of the two
        // lines (columns for a sideways slide, rows otherwise) it leaves and enters.
        const sideways = board.rowOf[to] === board.rowOf[blank];
        const la = sideways ? board.colOf[to] : board.rowOf[to];
        const lb = sideways ? board.colOf[blank] : board.rowOf[blank];
        const isRow = !sideways;
        let hc = this.h[id];
        if (counted[tile] === 1) {
          // An uncounted tile changes neither its (zero) term nor the order of any counted line.
          hc -= countedConflict(board, scratch, isRow, la, counted, lis) + countedConflict(board, scratch, isRow, lb, counted, lis);
          scratch[blank] = tile;
          scratch[to] = 0;
          hc += countedConflict(board, scratch, isRow, la, counted, lis) + countedConflict(board, scratch, isRow, lb, counted, lis);
          const goalLine = sideways ? home % cols : (home / cols) | 0;
          hc += Math.abs(lb - goalLine) - Math.abs(la - goalLine);
        } else {
          scratch[blank] = tile;
          scratch[to] = 0;
        }
        const key = this.hashOf(scratch);
        if (this.find(scratch, key) < 0) {
          if (this.nodes >= this.cap) {
            this.failure = `node cap ${this.cap} reached`;
            return (this.status = 'exhausted');
          }
          const child = this.insert(scratch, key, id, d, gc, hc, to);
          if (hc === 0) {
            this.goal = child;
            return (this.status = 'found');
          }
          this.push(child);
        }
        scratch[to] = tile;
        scratch[blank] = 0;
      }
    }
    return this.status;
  }

  private hashOf(s: Uint8Array): number {
    let h = 0x811c9dc5;
    for (let i = 0; i < this.n; i++) h = Math.imul(h ^ s[i], 0x01000193);
    return (h ^ (h >>> 15)) >>> 0;
  }

  private find(s: Uint8Array, key: number): number {
    const n = this.n;
    for (let slot = key & this.hashMask; ; slot = (slot + 1) & this.hashMask) {
      const id = this.hash[slot];
      if (id < 0) return -1;
      const base = id * n;
      let same = true;
      for (let i = 0; i < n; i++) {
        if (this.pool[base + i] !== s[i]) {
          same = false;
          break;
        }
      }
      if (same) return id;
    }
  }

  /** Doubles every per-state array (up to the cap) and rehashes. */
  private grow(): void {
    const room = Math.min(this.cap, this.room * 2);
    const copy = <T extends Uint8Array | Int32Array>(a: T, len: number): T => {
      const b = new (a.constructor as new (n: number) => T)(len);
      b.set(a);
      return b;
    };
    this.pool = copy(this.pool, room * this.n);
    this.parent = copy(this.parent, room);
    this.dir = copy(this.dir, room);
    this.g = copy(this.g, room);
    this.h = copy(this.h, room);
    this.blank = copy(this.blank, room);
    let size = 1;
    while (size < room * 2) size <<= 1;
    this.hash = new Int32Array(size).fill(-1);
    this.hashMask = size - 1;
    for (let id = 0; id < this.nodes; id++) {
      let slot = this.hashOf(this.pool.subarray(id * this.n, id * this.n + this.n)) & this.hashMask;
      while (this.hash[slot] >= 0) slot = (slot + 1) & this.hashMask;
      this.hash[slot] = id;
    }
    this.room = room;
  }

  private insert(s: Uint8Array, key: number, parent: number, dir: number, g: number, h: number, blank: number): number {
    if (this.nodes === this.room) this.grow();
    const id = this.nodes++;
    if (h < this.h[this.bestId] || (h === this.h[this.bestId] && g < this.g[this.bestId])) this.bestId = id;
    this.pool.set(s, id * this.n);
    this.parent[id] = parent;
    this.dir[id] = dir;
    this.g[id] = g;
    this.h[id] = h;
    this.blank[id] = blank;
    let slot = key & this.hashMask;
    while (this.hash[slot] >= 0) slot = (slot + 1) & this.hashMask;
    this.hash[slot] = id;
    return id;
  }

  private push(id: number): void {
    // Ties on f go to the smaller h (closer to the goal): h < 2^16 on any board we accept.
    const key = (this.g[id] + this.phi(this.h[id])) * 65536 + this.h[id];
    if (this.heapLen === this.heap.length) {
      const h = new Int32Array(this.heap.length * 2);
      h.set(this.heap);
      this.heap = h;
      const k = new Float64Array(this.heapKey.length * 2);
      k.set(this.heapKey);
      this.heapKey = k;
    }
    const heap = this.heap;
    const keys = this.heapKey;
    let i = this.heapLen++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (keys[p] <= key) break;
      heap[i] = heap[p];
      keys[i] = keys[p];
      i = p;
    }
    heap[i] = id;
    keys[i] = key;
  }

  private pop(): number {
    const heap = this.heap;
    const keys = this.heapKey;
    const top = heap[0];
    const len = --this.heapLen;
    const id = heap[len];
    const key = keys[len];
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= len) break;
      if (c + 1 < len && keys[c + 1] < keys[c]) c++;
      if (keys[c] >= key) break;
      heap[i] = heap[c];
      keys[i] = keys[c];
      i = c;
    }
    heap[i] = id;
    keys[i] = key;
    return top;
  }
}
