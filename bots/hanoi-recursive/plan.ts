/**
 * Optimal any-start → any-goal plan for the 3-peg Towers of Hanoi, as a short list of segments.
 *
 * Discs are 0-based (0 = smallest), pegs 0..2 ('A'..'C'). Discs above the largest disc k that differs never
 * move. Disc k moves once or twice on an optimal path, so both are costed and the cheaper kept:
 *  - once:  discs 0..k−1 gather on the third peg r, k goes s→t, then the r-tower spreads into the goal;
 *  - twice: discs 0..k−1 gather on t, k goes s→r, the tower moves t→s (2^k − 1), k goes r→t, then the
 *    s-tower spreads into the goal.
 * Seed 002's recursion only knows the first; e.g. BBAA → AABA needs 5 moves (twice) against 7 (once).
 *
 * "Gather discs 0..m−1 of a configuration into a tower on peg T" is seed 002's optimal recursion for any
 * start onto one peg; spreading a tower into a configuration is the same plan reversed.
 */

/** One step of a plan: a single disc move, or a perfect tower of discs 0..count−1 moved from → to. */
export type PlanSegment =
  | { readonly type: 'move'; readonly from: number; readonly to: number }
  | { readonly type: 'tower'; readonly count: number; readonly from: number; readonly to: number };

/** A plan and its exact length. */
export interface HanoiPlan {
  readonly segments: readonly PlanSegment[];
  readonly moves: number;
}

/** Pegs of a state string ("BCC") as 0..2, or null when a letter is not A, B or C. */
export function parsePegs(state: string): Uint8Array | null {
  const pegs = new Uint8Array(state.length);
  for (let i = 0; i < state.length; i++) {
    const p = state.charCodeAt(i) - 65;
    if (p < 0 || p > 2) return null;
    pegs[i] = p;
  }
  return pegs;
}

/** targets[i] = the peg where discs 0..i must stand together on the way to a tower of 0..m−1 on `peg`. */
function towerTargets(cfg: Uint8Array, m: number, peg: number): Uint8Array {
  const t = new Uint8Array(m);
  let target = peg;
  for (let i = m - 1; i >= 0; i--) {
    t[i] = target;
    if (cfg[i] !== target) target = 3 - cfg[i] - target;
  }
  return t;
}

/** Moves needed to gather discs 0..m−1 of `cfg` into a tower on `peg` (equal to the reverse direction). */
export function gatherCost(cfg: Uint8Array, m: number, peg: number): number {
  const t = towerTargets(cfg, m, peg);
  let cost = 0;
  for (let i = 0; i < m; i++) if (cfg[i] !== t[i]) cost += 2 ** i; // disc i once + the tower of i discs
  return cost;
}

/** Segments gathering discs 0..m−1 of `cfg` onto `peg`, smallest disc's work first. */
function gather(cfg: Uint8Array, m: number, peg: number, out: PlanSegment[]): void {
  const t = towerTargets(cfg, m, peg);
  for (let i = 0; i < m; i++) {
    if (cfg[i] === t[i]) continue;
    // Discs 0..i−1 now form a tower on the third peg of (cfg[i], t[i]).
    out.push({ type: 'move', from: cfg[i], to: t[i] });
    if (i > 0) out.push({ type: 'tower', count: i, from: 3 - cfg[i] - t[i], to: t[i] });
  }
}

/** Segments spreading a tower of discs 0..m−1 on `peg` into `cfg`: {@link gather} reversed. */
function spread(cfg: Uint8Array, m: number, peg: number, out: PlanSegment[]): void {
  const t = towerTargets(cfg, m, peg);
  for (let i = m - 1; i >= 0; i--) {
    if (cfg[i] === t[i]) continue;
    if (i > 0) out.push({ type: 'tower', count: i, from: t[i], to: 3 - cfg[i] - t[i] });
    out.push({ type: 'move', from: t[i], to: cfg[i] });
  }
}

/** The optimal plan from `start` to `goal` (equal-length peg arrays). */
export function planHanoi(start: Uint8Array, goal: Uint8Array): HanoiPlan {
  let k = start.length - 1;
  while (k >= 0 && start[k] === goal[k]) k--;
  if (k < 0) return { segments: [], moves: 0 };
  const s = start[k];
  const t = goal[k];
  const r = 3 - s - t;
  const once = gatherCost(start, k, r) + 1 + gatherCost(goal, k, r);
  const twice = gatherCost(start, k, t) + 1 + (2 ** k - 1) + 1 + gatherCost(goal, k, s);
  const segments: PlanSegment[] = [];
  if (once <= twice) {
    gather(start, k, r, segments);
    segments.push({ type: 'move', from: s, to: t });
    spread(goal, k, r, segments);
  } else {
    gather(start, k, t, segments);
    segments.push({ type: 'move', from: s, to: r });
    if (k > 0) segments.push({ type: 'tower', count: k, from: t, to: s });
    segments.push({ type: 'move', from: r, to: t });
    spread(goal, k, s, segments);
  }
  return { segments, moves: Math.min(once, twice) };
}
