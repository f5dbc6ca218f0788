/**
 * Exact shortest distances in the 3-peg Towers of Hanoi graph (seed 002, "cambiando la posición final").
 * States are peg letters A/B/C per disc, smallest disc first; both strings must already be valid and of
 * equal length (this is a pure helper; the puzzle module validates before calling).
 */

/** Peg index 0..2 of the letter at `i` ('A' = 65). */
function pegAt(s: string, i: number): number {
  return s.charCodeAt(i) - 65;
}

/**
 * Moves needed to gather discs 1..k (indices 0..k−1) of `cfg` into one perfect tower on `peg`.
 * Greedy from the largest disc down: a disc already on the target costs nothing and leaves the target
 * unchanged; otherwise the smaller discs must first meet on the third peg, then this disc moves, then the
 * tower of the d smaller discs follows (2^d − 1), so this disc adds 2^d and the target flips to the third peg.
 * This is the optimal (unique) recursion of seed 002 for "any start onto one peg"; reversible, so it also
 * counts perfect tower → cfg.
 */
export function hanoiTowerDistance(cfg: string, k: number, peg: number): number {
  let target = peg;
  let cost = 0;
  for (let d = k - 1; d >= 0; d--) {
    const p = pegAt(cfg, d);
    if (p !== target) {
      cost += 2 ** d;
      target = 3 - p - target;
    }
  }
  return cost;
}

/**
 * Exact minimum number of moves from `start` to `goal` (any legal state to any legal state), O(discs).
 *
 * Discs larger than the largest disc that differs never need to move. For that disc (index d, from peg s to
 * peg t, third peg r) an optimal path moves it once or twice, never more:
 *  - once:  smaller discs gather on r, disc s→t, then r-tower → goal's smaller discs;
 *  - twice: smaller discs gather on t, disc s→r, t-tower → s (2^d − 1), disc r→t, then s-tower → goal.
 * The seed's table method only considers the first; the second is strictly cheaper when the small discs
 * already sit near t and the goal wants them near s, e.g. BBAA → AABA takes 5 moves (disc 3 moves twice)
 * against 7 with one move. The test suite checks the minimum of both against breadth-first search for every
 * start/goal pair of up to 6 discs.
 */
export function hanoiDistance(start: string, goal: string): number {
  let d = start.length - 1;
  while (d >= 0 && start.charCodeAt(d) === goal.charCodeAt(d)) d--;
  if (d < 0) return 0;
  const s = pegAt(start, d);
  const t = pegAt(goal, d);
  const r = 3 - s - t;
  const once = hanoiTowerDistance(start, d, r) + 1 + hanoiTowerDistance(goal, d, r);
  const twice = hanoiTowerDistance(start, d, t) + 1 + (2 ** d - 1) + 1 + hanoiTowerDistance(goal, d, s);
  return Math.min(once, twice);
}
