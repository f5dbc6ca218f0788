/**
 * The thesis's insertion/extraction (ch. 4 §4.2.1) as concrete cell moves. A *frame* fixes where we enter
 * the block: the path column P(0..k) goes straight in from the edge cell P(0) to the destination D = P(k),
 * the side column S(i) = P(i) + along runs beside it, and Q(t) = P(0) − inward + t·along are the corridor
 * cells outside P(0). The carried tile FD waits on W = Q(−1).
 *
 * Level r = k + 1 ≥ 2 (the figures are lost; this is our reconstruction):
 *   open the 2×2 work area, 8 moves: a (on P0) Q0→Q1→Q2→Q3, b (on S0) Q1→Q2, c (on S1) S0→Q1;
 *   FD W→Q0→P0 (2 moves; the thesis counts 1 because it starts FD on Q0, but a leaves the block
 *   through Q0, so FD must wait beside it);
 *   per level d = 1..k: raise the blanks (d ≥ 2: the tile on S(d) goes S(d)→S(d−1)→S(d−2), 2 moves)
 *   and swap FD with the next-level tile Y inside the 2×2 {P(d−1), P(d), S(d−1), S(d)}:
 *   Y P(d)→S(d), FD P(d−1)→P(d), Y S(d)→S(d−1)→P(d−1) (4 moves);
 *   the last swap puts FD on D and X (the tile that stood there) on P(k−1); replaying every earlier move
 *   reversed then carries X out to W and puts a, b, c and every shifted tile back where it was.
 *   Moves: prefix 10 + 6(k−1), total 2·prefix + 4 = 12r (thesis: 6r + 1 in and 6r − 3 out = 12r − 2).
 * Level 1: X P0→Q0→Q1, FD W→Q0→P0: 4 moves (thesis: 3, again counting FD as already on Q0).
 *
 * Holes: at the start of a permutation cycle there is no FD, and the cycle closes by inserting into the hole
 * left there. The same script works: a hole plays a tile that is never moved (Floor.step skips it). Every
 * real move goes into a cell that is empty in the full-block run, hence empty now, and the run ends in the
 * full-block result minus the hole. Only the last swap is special-cased, to save moves.
 */
import type { Floor } from '../shared/warehouse/floor.ts';

/** One way to reach a destination cell. */
export interface Frame {
  /** Edge cell of the path column. */
  readonly p0: number;
  /** Index step into the block (±1 or ±n) and along the edge towards the side column. */
  readonly inward: number;
  readonly along: number;
  /** Depth of D below P0 (level − 1). */
  readonly k: number;
  /** Where FD waits, and where X stands when the script ends. */
  readonly wait: number;
  readonly exit: number;
  /** Moves the script takes with FD and X both present. */
  readonly cost: number;
}

/** Script length for depth k (see the module comment). */
export function scriptCost(k: number): number {
  return k === 0 ? 4 : 12 * k + 12;
}

/**
 * Every valid frame for destination `d` (a block cell): each of the four block sides, each of the two
 * along-directions, when the side column stays in the block and Q(−1)..Q(3) stay on the board.
 */
export function frames(d: number, n: number, m: number): Frame[] {
  const r = (d / n) | 0, c = d % n;
  const lr = (r % (m + 1)) - 1, lc = (c % (m + 1)) - 1; // block-local coordinates 0..m−1
  const out: Frame[] = [];
  // [edge row, edge col, inward dr, dc, depth]
  const sides: [number, number, number, number, number][] = [
    [r - lr, c, 1, 0, lr],
    [r + (m - 1 - lr), c, -1, 0, m - 1 - lr],
    [r, c - lc, 0, 1, lc],
    [r, c + (m - 1 - lc), 0, -1, m - 1 - lc],
  ];
  for (const [er, ec, dr, dc, k] of sides) {
    for (const s of [1, -1]) {
      const ar = dc === 0 ? 0 : s, ac = dc === 0 ? s : 0; // along is perpendicular to inward
      const alongLocal = ar !== 0 ? lr : lc;
      if (k > 0 && (alongLocal + s < 0 || alongLocal + s > m - 1)) continue;
      const qr = er - dr, qc = ec - dc;
      const far = k === 0 ? 1 : 3;
      if (!onBoard(qr - ar, qc - ac, n) || !onBoard(qr + far * ar, qc + far * ac, n)) continue;
      const p0 = er * n + ec, inward = dr * n + dc, along = ar * n + ac;
      const q0 = p0 - inward;
      out.push({ p0, inward, along, k, wait: q0 - along, exit: k === 0 ? q0 + along : q0 - along, cost: scriptCost(k) });
    }
  }
  return out;
}

function onBoard(r: number, c: number, n: number): boolean {
  return r >= 0 && c >= 0 && r < n && c < n;
}

/** The moves before the last swap, as (from, to) pairs; see the module comment. */
function prefix(f: Frame): number[] {
  const { p0, inward: i, along: a, k } = f;
  const q0 = p0 - i;
  const P = (t: number): number => p0 + t * i;
  const S = (t: number): number => p0 + t * i + a;
  const s: number[] = [];
  s.push(p0, q0, q0, q0 + a, q0 + a, q0 + 2 * a, q0 + 2 * a, q0 + 3 * a); // a
  s.push(S(0), q0 + a, q0 + a, q0 + 2 * a); // b
  s.push(S(1), S(0), S(0), q0 + a); // c
  s.push(f.wait, q0, q0, p0); // FD enters
  for (let d = 1; d <= k; d++) {
    if (d >= 2) s.push(S(d), S(d - 1), S(d - 1), S(d - 2));
    if (d < k) s.push(P(d), S(d), P(d - 1), P(d), S(d), S(d - 1), S(d - 1), P(d - 1));
  }
  return s;
}

/**
 * Runs the frame's script on `floor`: afterwards the tile that waited on `f.wait` (if any) stands on D and
 * the tile that stood on D (if any) stands on `f.exit`; every other tile is where it was.
 */
export function swapIn(floor: Floor, f: Frame): void {
  const { p0, inward, along, k } = f;
  const q0 = p0 - inward;
  if (k === 0) {
    floor.play([p0, q0, q0, q0 + along, f.wait, q0, q0, p0]);
    return;
  }
  const pre = prefix(f);
  floor.play(pre);
  const p1 = p0 + (k - 1) * inward, p2 = p1 + inward, s1 = p1 + along, s2 = p2 + along;
  const fd = floor.cells[p1] !== 0, x = floor.cells[p2] !== 0;
  if (fd && x) floor.play([p2, s2, p1, p2, s2, s1, s1, p1]);
  else if (x) floor.step(p2, p1);
  else if (fd) floor.step(p1, p2);
  for (let j = pre.length - 2; j >= 0; j -= 2) floor.step(pre[j + 1], pre[j]);
}
