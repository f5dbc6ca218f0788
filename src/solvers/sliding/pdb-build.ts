import { makeBoard } from './board.ts';
import { placements, rankWeights, POPCOUNT16 } from './pdb-rank.ts';

/** Progress of a build. */
export interface BuildProgress {
  readonly depth: number;
  /** Abstract states (pattern placement + blank cell) settled so far, and how many there are. */
  readonly done: number;
  readonly total: number;
}

/**
 * Builds the additive pattern database of `tiles` on an R×C board (R·C ≤ 16, at most 7 tiles): for every
 * placement of the pattern tiles (ranked by pdb-rank.ts, tile order as given) the fewest moves OF PATTERN
 * TILES that bring them home, the other tiles being indistinguishable. Because only pattern-tile moves are
 * counted, the values of disjoint patterns add up to an admissible heuristic (Korf & Felner 2002).
 *
 * The abstract state still tracks the blank's cell, since which tiles can move depends on it: a 0-1 BFS
 * backwards from the goal (pattern home, blank home), where the blank stepping onto a non-pattern cell costs
 * 0 and swapping with a pattern tile costs 1 (moves are reversible, so distances from the goal are distances
 * to it). Layer by layer: a 0-cost step goes to the current layer's queue, a 1-cost step to the next one; a
 * state queued for d+1 that turns out reachable at d is lowered and its stale queue entry skipped. The result
 * keeps the minimum over blank cells, one byte per placement.
 */
export function buildPatternDb(rows: number, cols: number, tiles: readonly number[]): Uint8Array {
  const steps = buildPatternDbSteps(rows, cols, tiles);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
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
  slice = 1 << 17,
): Generator<BuildProgress, Uint8Array, void> {
  const n = rows * cols;
  const k = tiles.length;
  if (n > 16 || k < 1 || k > 7 || k > n - 2) throw new RangeError(`pattern of ${k} tiles on ${rows}x${cols} not supported`);
  for (const t of tiles) if (!Number.isInteger(t) || t < 1 || t >= n) throw new RangeError(`bad pattern tile ${t}`);
  const board = makeBoard(rows, cols);
  const nb = board.neighbor;
  const free = n - k;
  const total = placements(n, k + 1);
  // Items 0..k−1 are the pattern tiles, item k the blank: the full index is placement·(n−k) + blank's rank.
  const weights = rankWeights(n, k + 1);
  const depth = new Uint8Array(total).fill(255);
  const pos = new Uint8Array(k + 1);

  const rank = (): number => {
    let used = 0;
    let idx = 0;
    for (let i = 0; i <= k; i++) {
      const p = pos[i];
      idx += (p - POPCOUNT16[used & ((1 << p) - 1)]) * weights[i];
      used |= 1 << p;
    }
    return idx;
  };
  // Queue entries pack the k+1 cells as nibbles (item i in bits 4i..4i+3).
  const pack = (): number => {
    let s = 0;
    for (let i = k; i >= 0; i--) s = (s << 4) | pos[i];
    return s >>> 0;
  };

  let cur = new Uint32Array(1 << 16);
  let curLen = 0;
  let next = new Uint32Array(1 << 16);
  let nextLen = 0;
  const pushCur = (s: number): void => {
    if (curLen === cur.length) {
      const g = new Uint32Array(cur.length * 2);
      g.set(cur);
      cur = g;
    }
    cur[curLen++] = s;
  };
  const pushNext = (s: number): void => {
    if (nextLen === next.length) {
      const g = new Uint32Array(next.length * 2);
      g.set(next);
      next = g;
    }
    next[nextLen++] = s;
  };

  for (let i = 0; i < k; i++) pos[i] = tiles[i] - 1;
  pos[k] = n - 1;
  depth[rank()] = 0;
  pushCur(pack());
  let done = 0;
  for (let d = 0; curLen > 0; d++) {
    if (d >= 254) throw new Error('pattern database depth overflow');
    for (let head = 0; head < curLen; head++) {
      let s = cur[head];
      for (let i = 0; i <= k; i++, s >>>= 4) pos[i] = s & 15;
      if (depth[rank()] !== d) continue; // lowered to an earlier layer after being queued
      if (++done % slice === 0) yield { depth: d, done, total };
      const blank = pos[k];
      for (let dir = 0; dir < 4; dir++) {
        const to = nb[blank * 4 + dir];
        if (to < 0) continue;
        let item = -1;
        for (let i = 0; i < k; i++) {
          if (pos[i] === to) {
            item = i;
            break;
          }
        }
        pos[k] = to;
        if (item >= 0) pos[item] = blank;
        const idx = rank();
        if (item < 0) {
          if (depth[idx] > d) {
            depth[idx] = d;
            pushCur(pack());
          }
        } else if (depth[idx] === 255) {
          depth[idx] = d + 1;
          pushNext(pack());
        }
        if (item >= 0) pos[item] = to;
        pos[k] = blank;
      }
    }
    const t = cur;
    cur = next;
    curLen = nextLen;
    next = t;
    nextLen = 0;
  }

  const table = new Uint8Array(total / free);
  for (let p = 0, base = 0; p < table.length; p++, base += free) {
    let m = 255;
    for (let j = 0; j < free; j++) {
      const v = depth[base + j];
      if (v < m) m = v;
    }
    table[p] = m;
  }
  return table;
}
