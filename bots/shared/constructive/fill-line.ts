/**
 * Filling the top row of the free region of the current view (a column of the real board when the view is
 * transposed), the loop body of the thesis's n²−1_Puzzle (section 3.5).
 *
 * Tiles are placed left to right and locked. The last two use section 3.3: put the penultimate tile P on
 * the last cell and the last tile L one row below it, then a fixed sequence finishes both:
 * blank W of L → U R D (thesis "N, E, S"); blank S of L → L U U R D (thesis "O, N, N, E, S"). In the
 * transposed view these are exactly the thesis's column sequences (O, S, E and N, O, O, S, E).
 * When L cannot be brought there with P fixed (L trapped in P's destination between P and the fixed
 * prefix, or the blank trapped there), the thesis uses special cases with lost figures; here an exact
 * search over (blank, P, L) in the corner window finishes both tiles instead.
 */
import { Board, DOWN, LEFT, RIGHT, UP } from './board.ts';
import { beginLine, endLine } from './drag-weights.ts';
import { solveLocally } from './local-search.ts';
import { carryCost } from './step-cost.ts';
import { blankToRing, moveTile } from './tile-mover.ts';

/** Ring indices (clockwise from N) used below. */
const RING_S = 4;
const RING_W = 6;

/**
 * Fills view row r0, columns c0..vCols−1, leaving those cells locked. Thesis order is left to right; here
 * each placement takes whichever *end* of the still-free part of the row is cheaper (blank approach plus
 * carry estimate), so the row fills from both ends and its last two tiles meet somewhere inside. The
 * fixed cells stay a prefix plus a suffix of the row, which is all the tile mover and the last-two
 * sequences rely on (the sequences only need P's and L's cells free with fixed cells beyond them).
 */
export function fillTopRow(bd: Board, r0: number, c0: number): void {
  beginLine(bd, r0, c0);
  let lo = c0;
  let hi = bd.vCols - 1;
  while (hi - lo > 1) {
    const c = cheaperEnd(bd, r0, lo, hi);
    const t = bd.goalTile(r0, c);
    if (!moveTile(bd, t, r0, c) && !finishLocally(bd, [t], [[r0, c]], r0)) {
      throw new Error(`constructive: cannot place tile ${t}`);
    }
    bd.lock(r0, c, true);
    if (c === lo) lo++;
    else hi--;
  }
  placeLastTwo(bd, r0, hi);
  bd.lock(r0, lo, true);
  bd.lock(r0, hi, true);
  endLine(bd);
}

/** Which end of the free segment lo..hi of row r0 to fill next: the one whose tile is cheaper to bring. */
function cheaperEnd(bd: Board, r0: number, lo: number, hi: number): number {
  const a = placeCost(bd, r0, lo);
  const b = placeCost(bd, r0, hi);
  return b < a ? hi : lo;
}

/** Estimated moves to bring the tile of (r0, c) home: blank approach to its ring plus the open-board carry. */
function placeCost(bd: Board, r0: number, c: number): number {
  const p = bd.pos[bd.goalTile(r0, c)];
  const tr = bd.vr(p);
  const tc = bd.vc(p);
  if (tr === r0 && tc === c) return -1;
  const b = bd.pos[0];
  const approach = Math.max(Math.abs(bd.vr(b) - tr) - 1, 0) + Math.max(Math.abs(bd.vc(b) - tc) - 1, 0);
  return approach + carryCost(Math.abs(tc - c), tr - r0, 1);
}

/**
 * Section 3.3: the penultimate and last tiles of the row, ending on (r0, last − 1) and (r0, last); the
 * cells beyond them are fixed or off the board.
 */
function placeLastTwo(bd: Board, r0: number, last: number): void {
  const p = bd.goalTile(r0, last - 1);
  const l = bd.goalTile(r0, last);
  const goals: [number, number][] = [
    [r0, last - 1],
    [r0, last],
  ];
  if (at(bd, p, r0, last - 1) && at(bd, l, r0, last)) return;
  // P to L's cell; with only the fixed prefix locked the ring is never blocked both ways.
  if (!moveTile(bd, p, r0, last) && !finishLocally(bd, [p, l], goals, r0)) {
    throw new Error(`constructive: cannot place tile ${p}`);
  }
  if (at(bd, p, r0, last - 1) && at(bd, l, r0, last)) return;
  bd.lock(r0, last, true);
  const ok = moveTile(bd, l, r0 + 1, last) && setUpSequence(bd, r0 + 1, last);
  bd.lock(r0, last, false);
  if (!ok) {
    if (!finishLocally(bd, [p, l], goals, r0)) throw new Error(`constructive: cannot place tiles ${p}, ${l}`);
    return;
  }
  const b = bd.pos[0];
  if (bd.vc(b) === last - 1) {
    bd.moveView(UP);
    bd.moveView(RIGHT);
    bd.moveView(DOWN);
  } else {
    bd.moveView(LEFT);
    bd.moveView(UP);
    bd.moveView(UP);
    bd.moveView(RIGHT);
    bd.moveView(DOWN);
  }
}

/**
 * With L on (lr, last) below the locked P, leaves the blank W or S of L (L's arrival leaves it on one of
 * them; otherwise route it to W). False when the blank cannot get there without moving L or P.
 */
function setUpSequence(bd: Board, lr: number, last: number): boolean {
  const b = bd.pos[0];
  const br = bd.vr(b);
  const bc = bd.vc(b);
  if ((br === lr && bc === last - 1) || (br === lr + 1 && bc === last)) return true;
  return blankToRing(bd, lr, last, RING_W) || blankToRing(bd, lr, last, RING_S);
}

function at(bd: Board, t: number, r: number, c: number): boolean {
  return bd.pos[t] === bd.cell(r, c);
}

/**
 * Exact search for `tracked` onto `goals` in a window around them and the blank, starting at the row being
 * filled; widened step by step until a solution exists (a 3-row window around the row's end always has one).
 */
function finishLocally(
  bd: Board,
  tracked: number[],
  goals: [number, number][],
  r0: number,
): boolean {
  let r2 = r0;
  let c1 = bd.vCols;
  let c2 = 0;
  const cells = [bd.pos[0], ...tracked.map((t) => bd.pos[t])];
  for (const x of cells) {
    r2 = Math.max(r2, bd.vr(x));
    c1 = Math.min(c1, bd.vc(x));
    c2 = Math.max(c2, bd.vc(x));
  }
  for (const [r, c] of goals) {
    r2 = Math.max(r2, r);
    c1 = Math.min(c1, c);
    c2 = Math.max(c2, c);
  }
  for (let grow = 1; grow <= 3; grow++) {
    if (solveLocally(bd, tracked, goals, r0, c1 - grow, Math.max(r2 + grow, r0 + 2), c2 + grow)) return true;
  }
  return false;
}
