/**
 * Exact local search for the cases the thesis handles with fixed move lists next to fixed tiles (its
 * special cases 11–20, whose figures are lost in the text, and the "last tile trapped" situations of
 * section 3.3). A breadth-first search over (blank, tracked tiles) positions inside a small window of free
 * cells: other tiles in the window may be shuffled, tiles outside it never move (the blank never leaves the
 * window), locked cells are walls. The answer is the shortest such sequence, so it is never longer than a
 * correct fixed list for the same case.
 */
import type { Board } from './board.ts';

const DR = [-1, 1, 0, 0];
const DC = [0, 0, -1, 1];
/** Largest state space searched (cells^(tracked + 1)); the callers' windows stay far below it. */
const MAX_STATES = 1 << 21;

/**
 * Moves the blank so that each tile `tracked[k]` ends on view cell `goals[k]` (an [r, c] pair), using only
 * the free cells of the view window rows r1..r2, columns c1..c2 (inclusive, clipped to the board). The
 * tracked tiles, their goals and the blank must lie in the window on free cells. Returns false when the
 * window holds no solution (or is too big); the board is then unchanged.
 */
export function solveLocally(
  bd: Board,
  tracked: readonly number[],
  goals: readonly (readonly [number, number])[],
  r1: number,
  c1: number,
  r2: number,
  c2: number,
): boolean {
  r1 = Math.max(0, r1);
  c1 = Math.max(0, c1);
  r2 = Math.min(bd.vRows - 1, r2);
  c2 = Math.min(bd.vCols - 1, c2);
  const h = r2 - r1 + 1;
  const w = c2 - c1 + 1;
  if (h <= 0 || w <= 0) return false;
  const n = h * w;
  const k = tracked.length;
  let states = n;
  for (let i = 0; i < k; i++) states *= n;
  if (states > MAX_STATES) return false;
  const local = (r: number, c: number): number =>
    r < r1 || r > r2 || c < c1 || c > c2 || !bd.free(r, c) ? -1 : (r - r1) * w + (c - c1);
  // Window neighbour table: nb[4 * i + d] = window index the blank reaches moving d from i, or −1.
  const nb = new Int32Array(4 * n).fill(-1);
  for (let i = 0; i < n; i++) {
    const r = r1 + ((i / w) | 0);
    const c = c1 + (i % w);
    if (local(r, c) < 0) continue;
    for (let d = 0; d < 4; d++) nb[4 * i + d] = local(r + DR[d], c + DC[d]);
  }
  const where = (cell: number): number => local(bd.vr(cell), bd.vc(cell));
  const start = [where(bd.pos[0])];
  const goal: number[] = [];
  for (let i = 0; i < k; i++) {
    start.push(where(bd.pos[tracked[i]]));
    goal.push(local(goals[i][0], goals[i][1]));
  }
  if (start.some((x) => x < 0) || goal.some((x) => x < 0)) return false;

  // State = blank + n * (t0 + n * t1 ...).
  const encode = (parts: number[]): number => {
    let s = 0;
    for (let i = parts.length - 1; i >= 0; i--) s = s * n + parts[i];
    return s;
  };
  const prev = new Int32Array(states).fill(-1);
  const via = new Uint8Array(states);
  const queue = new Int32Array(states);
  const s0 = encode(start);
  prev[s0] = s0;
  queue[0] = s0;
  let head = 0;
  let tail = 1;
  let found = -1;
  const parts = new Array<number>(k + 1);
  while (head < tail) {
    const s = queue[head++];
    let x = s;
    for (let i = 0; i <= k; i++) {
      parts[i] = x % n;
      x = (x / n) | 0;
    }
    let done = true;
    for (let i = 0; i < k; i++) if (parts[i + 1] !== goal[i]) done = false;
    if (done) {
      found = s;
      break;
    }
    const b = parts[0];
    for (let d = 0; d < 4; d++) {
      const to = nb[4 * b + d];
      if (to < 0) continue;
      parts[0] = to;
      for (let i = 1; i <= k; i++) if (parts[i] === to) parts[i] = b;
      const t = encode(parts);
      if (prev[t] < 0) {
        prev[t] = s;
        via[t] = d;
        queue[tail++] = t;
      }
      for (let i = 1; i <= k; i++) if (parts[i] === b) parts[i] = to;
      parts[0] = b;
    }
  }
  if (found < 0) return false;
  const path: number[] = [];
  for (let s = found; s !== s0; s = prev[s]) path.push(via[s]);
  for (let i = path.length - 1; i >= 0; i--) bd.moveView(path[i]);
  return true;
}
