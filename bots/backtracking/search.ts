/**
 * Depth-first search over the move tree of a small sliding board (seed 003), keeping the shortest solution.
 *
 * Cut-offs, all from seed 003 except where noted:
 * - never undo the previous move;
 * - depth cap (32 on 3×3, see {@link depthCap});
 * - branch and bound: prune a node when g + h cannot beat the best bound, with h = the tiles' Manhattan
 *   distance (blank excluded), an admissible lower bound. The seed pruned only when g alone reached the
 *   best length; adding h is what makes the search fast and it never cuts an optimal branch.
 *
 * Two bounding strategies share one DFS:
 * - 'ida' (default): iterative deepening on f = g + h (IDA*): the bound starts at h(start) and rises to the
 *   smallest f that exceeded it; the first solution found is optimal because every shorter bound failed.
 * - 'dfbnb': depth-first branch and bound as in the seed: the bound starts at the cap and drops to
 *   (length of the best solution − 1) each time one is found; the last one kept is optimal.
 *
 * `seedPruning` adds seed 003's own cut: skip a child whose blank-included Manhattan distance grows by 2 or
 * more over its parent's. That cut is NOT admissible (the only way out of many states is uphill), so
 * answers found with it may be longer than optimal, or none may be found at all.
 */
import { MOVE_LETTERS, depthCap, manhattanTable, stepBlank, tileManhattan } from './board.ts';

/** Search settings. */
export interface SearchOptions {
  readonly strategy?: 'ida' | 'dfbnb';
  readonly seedPruning?: boolean;
  /** Deepest move count searched; default {@link depthCap} of the shape. */
  readonly cap?: number;
  /** Epoch ms after which the search stops (checked every 4,096 nodes). */
  readonly deadline?: number;
  readonly signal?: AbortSignal;
  /** Called at every visited node with the depth, the blank-included Manhattan distance and the board. */
  readonly onVisit?: (moves: number, manhattanWithBlank: number, board: Uint8Array) => void;
}

/** What the search found. */
export interface SearchResult {
  /** The shortest solution found (blank moves, `UDLR`), or null when none was found. */
  readonly moves: string | null;
  /** Nodes visited. */
  readonly nodes: number;
  /** True when the deadline or the abort signal stopped the search early. */
  readonly stopped: boolean;
}

/** Searches for a shortest solution of `board` (copied; a permutation of 0..n−1, 0 = blank). */
export function searchSliding(rows: number, cols: number, start: Uint8Array, opts: SearchOptions = {}): SearchResult {
  const n = rows * cols;
  const strategy = opts.strategy ?? 'ida';
  const cap = opts.cap ?? depthCap(rows, cols);
  const seedPruning = opts.seedPruning === true;
  const onVisit = opts.onVisit;
  const table = manhattanTable(rows, cols);
  const board = Uint8Array.from(start);
  const path = new Uint8Array(cap + 1);
  const best = new Uint8Array(cap + 1);
  // neighbour[b * 4 + d]: where the blank at b goes for move d, or −1 (precomputed: no division in the loop).
  const neighbour = new Int8Array(n * 4);
  for (let b = 0; b < n; b++) for (let d = 0; d < 4; d++) neighbour[b * 4 + d] = stepBlank(b, d, rows, cols);

  let bestLen = -1;
  let bound = 0;
  let nextBound = Infinity;
  let nodes = 0;
  let stopped = false;
  let done = false;

  const outOfTime = (): boolean =>
    (opts.deadline !== undefined && Date.now() > opts.deadline) || opts.signal?.aborted === true;

  // h: tiles' Manhattan (admissible); hb: blank-included Manhattan (seed 003's measure, for its cut and trace).
  const dfs = (g: number, h: number, hb: number, b: number, last: number): void => {
    nodes++;
    if ((nodes & 0xfff) === 0 && outOfTime()) {
      stopped = done = true;
      return;
    }
    if (onVisit) onVisit(g, hb, board);
    if (h === 0 && b === n - 1) {
      best.set(path.subarray(0, g));
      bestLen = g;
      if (strategy === 'ida') done = true;
      else bound = g - 1; // only strictly shorter solutions are still interesting
      return;
    }
    if (g >= cap) return;
    // Children that bring a tile closer first: finds solutions early, which tightens DFBnB's bound sooner.
    for (let pass = 0; pass < 2; pass++) {
      for (let d = 0; d < 4; d++) {
        if (d === (last ^ 1)) continue;
        const nb = neighbour[b * 4 + d];
        if (nb < 0) continue;
        const tile = board[nb];
        const dh = table[tile * n + b] - table[tile * n + nb];
        if ((dh < 0) !== (pass === 0)) continue;
        const ch = h + dh;
        const chb = hb + dh + table[nb] - table[b]; // table row 0 is the blank's own distance
        if (seedPruning && chb >= hb + 2) continue;
        const f = g + 1 + ch;
        if (f > bound) {
          if (f < nextBound) nextBound = f;
          continue;
        }
        board[b] = tile;
        board[nb] = 0;
        path[g] = d;
        dfs(g + 1, ch, chb, nb, d);
        board[nb] = tile;
        board[b] = 0;
        if (done) return;
      }
    }
  };

  const h0 = tileManhattan(board, table);
  const hb0 = h0 + table[board.indexOf(0)];
  const b0 = board.indexOf(0);
  if (strategy === 'dfbnb') {
    bound = cap;
    dfs(0, h0, hb0, b0, -1);
  } else {
    bound = h0;
    while (!done && bound <= cap) {
      nextBound = Infinity;
      dfs(0, h0, hb0, b0, -1);
      if (done || nextBound === Infinity) break;
      bound = nextBound;
    }
  }
  let moves: string | null = null;
  if (bestLen >= 0) {
    moves = '';
    for (let i = 0; i < bestLen; i++) moves += MOVE_LETTERS[best[i]];
  }
  return { moves, nodes, stopped };
}
