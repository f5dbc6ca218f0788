/**
 * Beam search over whole board states along a reduction plan (plan.ts). Every layer holds up to `width`
 * states, all after the same number of moves, with the lowest estimates of the moves still to come; the
 * search stops once enough states have completed the plan (only the final block is left).
 *
 * The estimate of a state at plan step k is a weighted sum of step costs,
 *   E = decay^k · D_k(blank, step tiles) + Σ over later steps j of decay^j · A_j(their cells)
 *       + decay^S · c · Manhattan(final-block tiles),
 * D_k being the step's exact table (the true cost of the step for its own tiles, given the walls and the
 * blank) and A_j the cost step j will have when its turn comes (step-table.ts). A step's tiles thus keep
 * their value when the step before completes, so completing a step never makes a state look worse than its
 * siblings; and among the many equally short ways to place the current tile the beam prefers those whose
 * blank walk carries the next tiles towards their homes instead of away, which is where a tile-by-tile
 * method such as the constructive bot loses most of its moves. The decay says how much less a step counts
 * than the one before: later shuffling undoes part of what is done now for a tile placed much later.
 * Because the weights depend on the step index only, never on the state's own progress, states at
 * different steps are compared on one scale.
 *
 * A share of every layer goes to the most advanced states (fewest steps left, then lowest D_k) whatever
 * their estimate: D_k is exact, so these always progress, and the search cannot stall on a plateau of the
 * estimate. Duplicate states are dropped (64-bit Zobrist hashes of every state kept), and a state never
 * plays the inverse of its last move. Children are scored from their parent without being built; only the
 * kept ones are copied, into one of two flat buffers that alternate between layers.
 */
import { INVERSE, LETTERS, pathTo, zobrist } from './beam-keys.ts';
import type { PlanTables } from './plan-tables.ts';
import { makeScorer } from './scorer.ts';
import type { Scorer } from './scorer.ts';
import { SeenCache } from '../shared/seen-cache.ts';
import { selectSmallest } from './select-smallest.ts';
import { UNREACHABLE } from './step-table.ts';
import { StateBuffer } from './state-buffer.ts';

/** Tuning of one beam search. */
export interface BeamOptions {
  /** States kept per layer. */
  readonly width: number;
  /** Step j's cost weighs decay^j. */
  readonly decay: number;
  /** Moves per unit of Manhattan distance of a final-block tile (a mild pull towards the block). */
  readonly blockWeight: number;
  /** Share of each layer kept for the most advanced states. */
  readonly progressShare: number;
  /** Stop after this many finished states... */
  readonly finishCount: number;
  /** ...or this many layers after the first one (later finishers may leave a cheaper final block). */
  readonly finishSlack: number;
  /** Give up after this many layers (a safety net: the caller then falls back). */
  readonly maxDepth: number;
}

/** A state that completed the plan: the moves that led there and its tiles. */
export interface Finished {
  readonly moves: string;
  readonly tiles: Uint8Array;
}

/** Where a search stands after a slice of work. */
export type BeamStatus = 'running' | 'done';

/**
 * The beam from `start` (cell → tile, 0 = blank), steppable: `run(layers)` advances it by at most that many
 * layers, so a bot can check its deadline and let cancel messages in between slices.
 */
export class BeamSearch {
  /** Candidate children generated so far (all layers). */
  nodes = 0;
  /** Layers expanded so far (= moves of the deepest state). */
  depth = 0;
  /** States that completed the plan (sorted by length once the search is done). */
  readonly finished: Finished[] = [];

  private readonly pt: PlanTables;
  private readonly opts: BeamOptions;
  private readonly n: number;
  private readonly S: number;
  private W: number;
  /** workBefore[k]: Σ region sizes of steps 0..k−1. */
  private readonly workBefore: Float64Array;
  private readonly scorer: Scorer;
  private readonly nbr: Int16Array;
  private readonly z1: Uint32Array;
  private readonly z2: Uint32Array;
  private readonly visited: SeenCache;
  private cur: StateBuffer;
  private nxt: StateBuffer;
  private readonly parents: Int32Array[] = [];
  private readonly dirs: Uint8Array[] = [];
  private firstFinish = -1;
  private status: BeamStatus = 'running';
  private reserve: number;
  // Scratch.
  private readonly where: Int16Array;
  private readonly scratch: Uint8Array;
  private readonly ev = { step: 0, a: -1, b: -1, d: 0, future: 0 };
  private cap = 0;
  private cParent = new Int32Array(0);
  private cDir = new Uint8Array(0);
  private cKey = new Float64Array(0);
  private cProg = new Float64Array(0);
  private cH1 = new Uint32Array(0);
  private cH2 = new Uint32Array(0);
  private order = new Int32Array(0);

  constructor(pt: PlanTables, start: ArrayLike<number>, opts: BeamOptions) {
    const { rows, cols, steps } = pt.plan;
    const n = rows * cols;
    this.pt = pt;
    this.opts = opts;
    this.n = n;
    this.S = steps.length;
    this.W = Math.max(1, Math.floor(opts.width));
    this.reserve = Math.min(this.W, Math.ceil(this.W * opts.progressShare));
    this.workBefore = new Float64Array(this.S + 1);
    for (let k = 0; k < this.S; k++) this.workBefore[k + 1] = this.workBefore[k] + pt.tables[k].m;
    this.scorer = makeScorer(pt, opts.decay, opts.blockWeight);
    this.nbr = new Int16Array(4 * n).fill(-1);
    for (let c = 0; c < n; c++) {
      const r = (c / cols) | 0;
      const k = c % cols;
      if (r > 0) this.nbr[4 * c] = c - cols;
      if (r < rows - 1) this.nbr[4 * c + 1] = c + cols;
      if (k > 0) this.nbr[4 * c + 2] = c - 1;
      if (k < cols - 1) this.nbr[4 * c + 3] = c + 1;
    }
    this.z1 = zobrist(n, 0x2545f491);
    this.z2 = zobrist(n, 0x6c8e9cf5);
    // Room for the last ~16 layers: older states are rarely met again, and a small table stays in cache.
    this.visited = new SeenCache(Math.max(10, Math.min(16, Math.ceil(Math.log2(this.W * 4)))));
    this.where = new Int16Array(n);
    this.scratch = new Uint8Array(n);
    this.cur = new StateBuffer(this.W, n);
    this.nxt = new StateBuffer(this.W, n);
    const cur = this.cur;
    let h1 = 0;
    let h2 = 0;
    let blank = 0;
    for (let c = 0; c < n; c++) {
      cur.tiles[c] = start[c];
      if (start[c] === 0) blank = c;
      h1 ^= this.z1[c * n + start[c]];
      h2 ^= this.z2[c * n + start[c]];
    }
    const ev = this.evaluate(cur.tiles, 0, blank, 0);
    if (ev.step === this.S) {
      this.finished.push({ moves: '', tiles: Uint8Array.from(start) });
      this.status = 'done';
      return;
    }
    cur.count = 1;
    cur.blank[0] = blank;
    cur.step[0] = ev.step;
    cur.posA[0] = ev.a;
    cur.posB[0] = ev.b;
    cur.future[0] = ev.future;
    cur.h1[0] = h1 >>> 0;
    cur.h2[0] = h2 >>> 0;
    cur.last[0] = 4;
    this.visited.add(cur.h1[0], cur.h2[0]);
  }

  /**
   * Scores a state from scratch, advancing past completed steps; `step` = S when the plan is complete.
   * Returns a shared scratch object.
   */
  private evaluate(tiles: Uint8Array, base: number, blank: number, from: number): { step: number; a: number; b: number; d: number; future: number } {
    const { plan, tables } = this.pt;
    const { steps, stepOf } = plan;
    const { single, partner, pair } = this.scorer;
    const { n, S, ev, where } = this;
    let k = from;
    for (; k < S; k++) {
      const st = steps[k];
      if (tiles[base + st.homes[0]] !== st.tiles[0]) break;
      if (st.tiles.length > 1 && tiles[base + st.homes[1]] !== st.tiles[1]) break;
    }
    ev.step = k;
    ev.future = 0;
    if (k === S) return ev;
    for (let c = 0; c < n; c++) where[tiles[base + c]] = c;
    let future = 0;
    for (let t = 1; t < n; t++) {
      if (stepOf[t] <= k) continue;
      const tab = pair[t];
      if (tab) future += tab[where[t] * n + where[partner[t]]];
      else if (partner[t] < 0) future += single[t * n + where[t]];
    }
    ev.future = future;
    const st = steps[k];
    const tb = tables[k];
    const L = tb.local;
    ev.a = where[st.tiles[0]];
    ev.b = st.tiles.length > 1 ? where[st.tiles[1]] : -1;
    ev.d = tb.k === 1 ? tb.dist[L[blank] * tb.m + L[ev.a]] : tb.dist[(L[blank] * tb.m + L[ev.a]) * tb.m + L[ev.b]];
    return ev;
  }

  /** Change of the estimate when tile t (not of the current step) slides from `from` to `to`. */
  private delta(tiles: Uint8Array, base: number, t: number, from: number, to: number): number {
    const { single, partner, pair } = this.scorer;
    const n = this.n;
    const o = partner[t];
    if (o < 0) return single[t * n + to] - single[t * n + from];
    const q = tiles.indexOf(o, base) - base;
    const tab = pair[t];
    if (tab) return tab[to * n + q] - tab[from * n + q];
    const tb = pair[o]!;
    return tb[q * n + to] - tb[q * n + from];
  }

  /** States kept per layer now. */
  get width(): number {
    return this.W;
  }

  /** Narrows (or widens, up to the starting width) the beam from the next layer on. */
  setWidth(width: number): void {
    this.W = Math.max(1, Math.min(this.cur.tiles.length / this.cur.stride, Math.floor(width)));
    this.reserve = Math.min(this.W, Math.ceil(this.W * this.opts.progressShare));
  }

  /**
   * Share of the plan's work done by the most advanced state, each step weighted by its region's size (a
   * step in a big region takes more layers), in [0, 1].
   */
  progress(): number {
    let k = 0;
    for (let i = 0; i < this.cur.count; i++) if (this.cur.step[i] > k) k = this.cur.step[i];
    if (this.status === 'done' || this.finished.length > 0) return 1;
    return this.workBefore[k] / this.workBefore[this.S];
  }

  /** Expands up to `layers` more layers; 'done' once the search has stopped (see `finished`). */
  run(layers: number): BeamStatus {
    for (let l = 0; l < layers && this.status === 'running'; l++) {
      if (this.cur.count === 0 || this.depth >= this.opts.maxDepth) this.status = 'done';
      else if (this.firstFinish >= 0 && (this.depth - this.firstFinish >= this.opts.finishSlack || this.finished.length >= this.opts.finishCount)) {
        this.status = 'done';
      } else this.expand();
    }
    if (this.status === 'done') this.finished.sort((x, y) => x.moves.length - y.moves.length);
    return this.status;
  }

  /** One layer: score every child, keep the best, build them. */
  private expand(): void {
    const { tables, plan } = this.pt;
    const steps = plan.steps;
    const { n, S, W, nbr, z1, z2, visited, scratch } = this;
    const stepWeight = this.scorer.stepWeight;
    const cur = this.cur;
    const nxt = this.nxt;
    if (this.cap < 4 * cur.count) {
      const cap = (this.cap = 4 * cur.count);
      this.cParent = new Int32Array(cap);
      this.cDir = new Uint8Array(cap);
      this.cKey = new Float64Array(cap);
      this.cProg = new Float64Array(cap);
      this.cH1 = new Uint32Array(cap);
      this.cH2 = new Uint32Array(cap);
      this.order = new Int32Array(cap);
    }
    const { cParent, cDir, cKey, cProg, cH1, cH2, order } = this;
    const tiles = cur.tiles;
    const stride = cur.stride;
    let nc = 0;
    for (let i = 0; i < cur.count; i++) {
      const base = i * stride;
      const blank = cur.blank[i];
      const k = cur.step[i];
      const frozen = steps[k].frozen;
      const tb = tables[k];
      const L = tb.local;
      const m = tb.m;
      const dist = tb.dist;
      const one = tb.k === 1;
      const pa = cur.posA[i];
      const pb = cur.posB[i];
      const skip = INVERSE[cur.last[i]];
      const wk = stepWeight[k];
      const future = cur.future[i];
      const ph1 = cur.h1[i];
      const ph2 = cur.h2[i];
      const zb = blank * n;
      for (let d = 0; d < 4; d++) {
        if (d === skip) continue;
        const to = nbr[4 * blank + d];
        if (to < 0 || frozen[to]) continue;
        const t = tiles[base + to];
        const zt = to * n;
        const x1 = (ph1 ^ z1[zb] ^ z1[zt + t] ^ z1[zt] ^ z1[zb + t]) >>> 0;
        const x2 = (ph2 ^ z2[zb] ^ z2[zt + t] ^ z2[zt] ^ z2[zb + t]) >>> 0;
        if (visited.has(x1, x2)) continue;
        const a = to === pa ? blank : pa;
        const b = to === pb ? blank : pb;
        const dd = one ? dist[L[to] * m + L[a]] : dist[(L[to] * m + L[a]) * m + L[b]];
        if (dd === UNREACHABLE) continue;
        let key: number;
        let prog: number;
        if (dd === 0) {
          // The step is complete: score the child from scratch under the next unfinished step.
          for (let c = 0; c < n; c++) scratch[c] = tiles[base + c];
          scratch[blank] = t;
          scratch[to] = 0;
          const ev = this.evaluate(scratch, 0, to, k + 1);
          key = ev.step === S ? -1 : stepWeight[ev.step] * ev.d + ev.future;
          prog = (S - ev.step) * 256 + ev.d;
        } else {
          key = wk * dd + future;
          if (to !== pa && to !== pb) key += this.delta(tiles, base, t, to, blank);
          prog = (S - k) * 256 + dd;
        }
        // A tiny hash-derived jitter breaks ties without favouring a move direction.
        const jitter = (x1 & 0xffff) * 1e-12;
        cParent[nc] = i;
        cDir[nc] = d;
        cKey[nc] = key * (1 + jitter);
        cProg[nc] = prog + jitter;
        cH1[nc] = x1;
        cH2[nc] = x2;
        nc++;
      }
    }
    this.nodes += nc;
    for (let j = 0; j < nc; j++) order[j] = j;
    const keep = Math.min(nc, W);
    if (nc > W) {
      // The most advanced first, then the best estimates among the others.
      selectSmallest(order, cProg, nc, this.reserve);
      selectSmallest(order.subarray(this.reserve), cKey, nc - this.reserve, W - this.reserve);
    }
    nxt.count = 0;
    const parent = new Int32Array(keep);
    const dirOf = new Uint8Array(keep);
    for (let j = 0; j < keep; j++) {
      const c = order[j];
      if (!visited.add(cH1[c], cH2[c])) continue;
      const p = cParent[c];
      const d = cDir[c];
      const blank = cur.blank[p];
      const to = nbr[4 * blank + d];
      const base = p * stride;
      const t = tiles[base + to];
      if (cKey[c] < 0) {
        const out = tiles.slice(base, base + n);
        out[blank] = t;
        out[to] = 0;
        this.finished.push({ moves: pathTo(this.parents, this.dirs, p) + LETTERS[d], tiles: out });
        if (this.firstFinish < 0) this.firstFinish = this.depth;
        continue;
      }
      const s = nxt.count++;
      nxt.copyFrom(cur, p, s);
      const nb = s * stride;
      nxt.tiles[nb + blank] = t;
      nxt.tiles[nb + to] = 0;
      nxt.blank[s] = to;
      nxt.h1[s] = cH1[c];
      nxt.h2[s] = cH2[c];
      nxt.last[s] = d;
      parent[s] = p;
      dirOf[s] = d;
      const k = cur.step[p];
      const pa = cur.posA[p];
      const pb = cur.posB[p];
      const a = to === pa ? blank : pa;
      const b = to === pb ? blank : pb;
      const tb = tables[k];
      const L = tb.local;
      const dd = tb.k === 1 ? tb.dist[L[to] * tb.m + L[a]] : tb.dist[(L[to] * tb.m + L[a]) * tb.m + L[b]];
      if (dd === 0) {
        const ev = this.evaluate(nxt.tiles, nb, to, k + 1);
        nxt.step[s] = ev.step;
        nxt.posA[s] = ev.a;
        nxt.posB[s] = ev.b;
        nxt.future[s] = ev.future;
      } else {
        nxt.step[s] = k;
        nxt.posA[s] = a;
        nxt.posB[s] = b;
        nxt.future[s] = to === pa || to === pb ? cur.future[p] : cur.future[p] + this.delta(tiles, base, t, to, blank);
      }
    }
    this.parents.push(parent);
    this.dirs.push(dirOf);
    this.cur = nxt;
    this.nxt = cur;
    this.depth++;
  }
}
