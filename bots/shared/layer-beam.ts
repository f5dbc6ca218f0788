/**
 * One beam search over whole sliding-board states, layer by layer: every state of a layer is g moves from the
 * start, each layer keeps the `width` children the evaluator ranks best (its estimate; all have the same g),
 * and the first child with h = 0 is the answer. Children whose g + h cannot beat `bound` (a solution already known,
 * h admissible) are dropped, so later, wider runs only look where a shorter answer can be.
 *
 * A state is its tiles' cells (`pos`, pos[0] = the blank) plus the evaluator's per-state values; the layer
 * keeps one parent index and one move per state for the path. Duplicates go through a lossy 64-bit Zobrist
 * set (seen-cache.ts): a forgotten state costs a revisit, never a wrong answer.
 */
import type { Board } from '../../src/solvers/sliding/board.ts';
import { DIR_LETTERS, INVERSE_DIR } from '../../src/solvers/sliding/board.ts';
import { SeenCache } from './seen-cache.ts';

/** How a beam scores states: h from tile positions, with per-state values carried from parent to child. */
export interface StateEvaluator {
  /** Bytes of values per state. */
  readonly width: number;
  readonly name: string;
  /** Fills `vals` for `pos` and returns h. */
  full(pos: Uint8Array, vals: Uint8Array): number;
  /** After `tile` moved (`pos` updated): writes the child's values into `out`, returns its h. */
  child(pos: Uint8Array, vals: Uint8Array, tile: number, out: Uint8Array): number;
  /** What the beam ranks a state of estimate h and values `vals` by (smaller first), below {@link maxRank}. */
  rank(vals: Uint8Array, h: number): number;
  readonly maxRank: number;
}

/** Where a run stands after a slice of work. */
export type BeamStatus = 'running' | 'found' | 'failed';

/** One layer's states, flat. */
class Layer {
  pos: Uint8Array;
  vals: Uint8Array;
  h: Uint16Array;
  rank: Uint16Array;
  hashHi: Int32Array;
  hashLo: Int32Array;
  parent: Int32Array;
  dir: Uint8Array;
  length = 0;

  constructor(
    readonly cap: number,
    readonly n: number,
    readonly width: number,
  ) {
    this.pos = new Uint8Array(cap * n);
    this.vals = new Uint8Array(cap * width);
    this.h = new Uint16Array(cap);
    this.rank = new Uint16Array(cap);
    this.hashHi = new Int32Array(cap);
    this.hashLo = new Int32Array(cap);
    this.parent = new Int32Array(cap);
    this.dir = new Uint8Array(cap);
  }
}

/** Zobrist keys per (tile, cell), two 32-bit halves, from a fixed xorshift stream (no randomness here). */
function zobrist(n: number): [Int32Array, Int32Array] {
  const hi = new Int32Array(n * n);
  const lo = new Int32Array(n * n);
  let x = 0x9e3779b9 | 0;
  for (let i = 0; i < n * n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    hi[i] = x;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    lo[i] = x;
  }
  return [hi, lo];
}

/** A steppable beam run (see the module comment). */
export class LayerBeam {
  /** Children generated. */
  nodes = 0;
  /** Layers completed (= g of the current layer). */
  depth = 0;
  private readonly board: Board;
  private readonly n: number;
  private readonly width: number;
  private readonly ev: StateEvaluator;
  private readonly bound: number;
  private readonly maxDepth: number;
  private readonly zHi: Int32Array;
  private readonly zLo: Int32Array;
  private readonly seen: SeenCache;
  private cur: Layer;
  private spare: Layer;
  private readonly kids: Layer;
  private readonly history: { parent: Int32Array; dir: Uint8Array }[] = [];
  private head = 0;
  private goal = -1;
  private status: BeamStatus = 'running';
  private readonly tiles: Uint8Array;
  /** Scratch: the parent being expanded (cells, values) and a child's values. */
  private readonly pos: Uint8Array;
  private readonly vals: Uint8Array;
  private readonly childVals: Uint8Array;
  private readonly buckets: Int32Array;
  private readonly order: Int32Array;

  /** `bound`: only answers shorter than this are wanted (Infinity: any). */
  constructor(board: Board, start: ArrayLike<number>, ev: StateEvaluator, width: number, bound: number, maxDepth = 1000) {
    this.board = board;
    const n = (this.n = board.size);
    this.width = width;
    this.ev = ev;
    this.bound = bound;
    this.maxDepth = maxDepth;
    [this.zHi, this.zLo] = zobrist(n);
    this.seen = new SeenCache(Math.max(10, Math.min(22, Math.ceil(Math.log2(width * 32)))));
    this.cur = new Layer(width, n, ev.width);
    this.spare = new Layer(width, n, ev.width);
    this.kids = new Layer(width * 3, n, ev.width);
    this.tiles = new Uint8Array(n);
    this.pos = new Uint8Array(n);
    this.vals = new Uint8Array(ev.width);
    this.childVals = new Uint8Array(ev.width);
    this.order = new Int32Array(width * 3);
    this.buckets = new Int32Array(ev.maxRank + 2);
    const pos = this.cur.pos;
    let hi = 0;
    let lo = 0;
    for (let c = 0; c < n; c++) {
      const t = start[c];
      pos[t] = c;
      hi ^= this.zHi[t * n + c];
      lo ^= this.zLo[t * n + c];
    }
    const h = ev.full(pos.subarray(0, n), this.cur.vals.subarray(0, ev.width));
    this.cur.h[0] = h;
    this.cur.hashHi[0] = hi;
    this.cur.hashLo[0] = lo;
    this.cur.parent[0] = -1;
    this.cur.dir[0] = 4;
    this.cur.length = 1;
    this.seen.add(hi, lo);
    if (h === 0) this.status = 'found';
    else if (h >= bound) this.status = 'failed';
  }

  /** The answer (valid once `run` returned 'found'). */
  solution(): string {
    const dirs: string[] = [];
    for (let d = this.history.length - 1, i = this.goal; d >= 0 && i >= 0; d--) {
      dirs.push(DIR_LETTERS[this.history[d].dir[i]]);
      i = this.history[d].parent[i];
    }
    return dirs.reverse().join('');
  }

  /** Expands about `budget` more states. */
  run(budget: number): BeamStatus {
    if (this.status !== 'running') return this.status;
    const { n, ev, board, cur, kids, tiles, zHi, zLo, pos, vals, childVals } = this;
    const w = ev.width;
    const nb = board.neighbor;
    const g1 = this.depth + 1;
    for (let done = 0; done < budget && this.head < cur.length; done++) {
      const i = this.head++;
      // The parent in scratch buffers: children are made in place and copied out only when kept.
      for (let t = 0, b = i * n; t < n; t++, b++) {
        pos[t] = cur.pos[b];
        tiles[pos[t]] = t;
      }
      for (let e = 0, b = i * w; e < w; e++, b++) vals[e] = cur.vals[b];
      const blank = pos[0];
      const last = cur.dir[i];
      for (let d = 0; d < 4; d++) {
        if (last < 4 && d === INVERSE_DIR[last]) continue;
        const to = nb[blank * 4 + d];
        if (to < 0) continue;
        const tile = tiles[to];
        const hi = cur.hashHi[i] ^ zHi[tile * n + to] ^ zHi[tile * n + blank] ^ zHi[to] ^ zHi[blank];
        const lo = cur.hashLo[i] ^ zLo[tile * n + to] ^ zLo[tile * n + blank] ^ zLo[to] ^ zLo[blank];
        if (this.seen.has(hi, lo)) continue;
        pos[tile] = blank;
        pos[0] = to;
        const h = ev.child(pos, vals, tile, childVals);
        this.nodes++;
        if (g1 + h < this.bound) {
          const k = kids.length++;
          for (let t = 0, b = k * n; t < n; t++, b++) kids.pos[b] = pos[t];
          for (let e = 0, b = k * w; e < w; e++, b++) kids.vals[b] = childVals[e];
          kids.h[k] = h;
          kids.rank[k] = ev.rank(childVals, h);
          kids.hashHi[k] = hi;
          kids.hashLo[k] = lo;
          kids.parent[k] = i;
          kids.dir[k] = d;
          if (h === 0) {
            this.select();
            this.goal = this.cur.length - 1;
            return (this.status = 'found');
          }
        }
        pos[tile] = to;
        pos[0] = blank;
      }
    }
    if (this.head < cur.length) return 'running';
    if (kids.length === 0) return (this.status = 'failed');
    this.select();
    if (this.depth >= this.maxDepth) return (this.status = 'failed');
    return 'running';
  }

  /**
   * The next layer: the children ranked best, at most `width`, each new to the seen set (two parents
   * can make the same child); a found goal (the last child) is always kept, last.
   */
  private select(): void {
    const { kids, buckets } = this;
    buckets.fill(0);
    const goalFirst = kids.length > 0 && kids.h[kids.length - 1] === 0;
    for (let k = 0; k < kids.length; k++) buckets[kids.rank[k] + 1]++;
    for (let b = 1; b < buckets.length; b++) buckets[b] += buckets[b - 1];
    const order = this.order;
    for (let k = 0; k < kids.length; k++) order[buckets[kids.rank[k]]++] = k;
    const out = this.spare;
    out.length = 0;
    const { n } = this;
    const w = this.ev.width;
    const keep = (k: number): void => {
      const j = out.length++;
      for (let t = 0; t < n; t++) out.pos[j * n + t] = kids.pos[k * n + t];
      for (let e = 0; e < w; e++) out.vals[j * w + e] = kids.vals[k * w + e];
      out.h[j] = kids.h[k];
      out.hashHi[j] = kids.hashHi[k];
      out.hashLo[j] = kids.hashLo[k];
      out.parent[j] = kids.parent[k];
      out.dir[j] = kids.dir[k];
    };
    for (let r = 0; r < kids.length && out.length < this.width - 1; r++) {
      const k = order[r];
      if (goalFirst && k === kids.length - 1) continue;
      if (this.seen.add(kids.hashHi[k], kids.hashLo[k])) keep(k);
    }
    if (goalFirst) keep(kids.length - 1);
    this.history.push({ parent: out.parent.slice(0, out.length), dir: out.dir.slice(0, out.length) });
    this.spare = this.cur;
    this.cur = out;
    this.kids.length = 0;
    this.head = 0;
    this.depth++;
  }
}
