import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/rng.ts';
import { sliding } from '../../src/puzzles/sliding/index.ts';
import { approachAlongBestPath } from '../../bots/shared/constructive/approach.ts';
import { Board } from '../../bots/shared/constructive/board.ts';
import { beginLine, shiftGain } from '../../bots/shared/constructive/drag-weights.ts';
import { solveLocally } from '../../bots/shared/constructive/local-search.ts';
import { MoveBuffer } from '../../bots/shared/constructive/move-buffer.ts';
import { carryCost } from '../../bots/shared/constructive/step-cost.ts';
import { constructiveAnswer } from '../../bots/constructive/solve.ts';

const LETTERS = 'UDLR';
const INVERSE: Record<string, string> = { U: 'D', D: 'U', L: 'R', R: 'L' };

/** Reference stack pass over a letter string. */
function cancelled(moves: string): string {
  const out: string[] = [];
  for (const m of moves) {
    if (out.length > 0 && out[out.length - 1] === INVERSE[m]) out.pop();
    else out.push(m);
  }
  return out.join('');
}

describe('MoveBuffer', () => {
  it('keeps exactly what the stack cancellation pass keeps', () => {
    const rng = createRng('buffer');
    for (let k = 0; k < 200; k++) {
      const len = rng.int(300);
      let raw = '';
      const buf = new MoveBuffer(16);
      for (let i = 0; i < len; i++) {
        const d = rng.int(4);
        raw += LETTERS[d];
        buf.push(d);
      }
      expect(buf.toString()).toBe(cancelled(raw));
      expect(buf.length).toBe(cancelled(raw).length);
    }
  });

  it('splits into chunks that concatenate back', () => {
    const buf = new MoveBuffer();
    for (let i = 0; i < 1000; i++) buf.push(i % 2 === 0 ? 0 : 2); // ULUL... never cancels
    const chunks = buf.toChunks(64);
    expect(chunks.every((c) => c.length <= 64)).toBe(true);
    expect(chunks.join('')).toBe(buf.toString());
    expect(new MoveBuffer().toChunks(10)).toEqual(['']);
  });
});

/** Optimal moves to carry one tile by (a, b) with the blank beside it, by BFS on an open 13×13 board. */
function bfsCarry(a: number, b: number, blankDr: number, blankDc: number): number {
  const n = 13;
  const t0 = 6 * n + 6;
  const goal = (6 - b) * n + (6 - a); // carry up-left
  const start = t0 * n * n + (6 + blankDr) * n + (6 + blankDc);
  const dist = new Map<number, number>([[start, 0]]);
  const queue = [start];
  for (let h = 0; h < queue.length; h++) {
    const s = queue[h];
    const t = Math.floor(s / (n * n));
    const bl = s % (n * n);
    if (t === goal) return dist.get(s)!;
    const br = Math.floor(bl / n);
    const bc = bl % n;
    for (const [dr, dc] of [[-1, 0], [1, 0], [0, -1], [0, 1]]) {
      const r = br + dr;
      const c = bc + dc;
      if (r < 0 || c < 0 || r >= n || c >= n) continue;
      const nb = r * n + c;
      const nt = nb === t ? bl : t;
      const ns = nt * n * n + nb;
      if (!dist.has(ns)) {
        dist.set(ns, dist.get(s)! + 1);
        queue.push(ns);
      }
    }
  }
  throw new Error('unreachable');
}

describe('carryCost', () => {
  it('equals the optimal single-tile carry on an open board', () => {
    // Sides: 0 ahead / 1 behind horizontally (left is ahead), 2 ahead / 3 behind vertically (up is ahead).
    const sides: [number, number, number][] = [
      [0, 0, -1],
      [1, 0, 1],
      [2, -1, 0],
      [3, 1, 0],
    ];
    for (let a = 0; a <= 4; a++) {
      for (let b = 0; b <= 4; b++) {
        for (const [side, dr, dc] of sides) expect(carryCost(a, b, side), `a=${a} b=${b} side=${side}`).toBe(bfsCarry(a, b, dr, dc));
      }
    }
  });
});

describe('solveLocally', () => {
  it('puts tracked tiles on their goals inside the window without touching locked or outside cells', () => {
    const rng = createRng('local');
    for (let k = 0; k < 200; k++) {
      const rows = 4 + rng.int(3);
      const cols = 4 + rng.int(3);
      const tiles = Int32Array.from(sliding.scramble({ kind: 'sliding', rows, cols }, rng).tiles);
      const probe = new Board(rows, cols, tiles);
      probe.setView(rng.int(2) === 1);
      // Window: the top 3 view rows, last 4 view columns, with a top corner locked. (Locking a middle cell
      // would make the corner beside it a dead end, whose tile can never change: no solution there.)
      const r1 = 0;
      const r2 = 2;
      const c1 = probe.vCols - 4;
      const c2 = probe.vCols - 1;
      const lockC = rng.int(2) === 0 ? c1 : c2;
      const cells: number[] = [];
      for (let r = r1; r <= r2; r++) for (let c = c1; c <= c2; c++) if (r !== r1 || c !== lockC) cells.push(probe.cell(r, c));
      const pick = (): number => cells.splice(rng.int(cells.length), 1)[0];
      // Put the blank on a random window cell (the board's parity does not matter to a local search).
      const blankAt = pick();
      const b = tiles.indexOf(0);
      tiles[b] = tiles[blankAt];
      tiles[blankAt] = 0;
      const bd = new Board(rows, cols, tiles);
      bd.setView(probe.transposed);
      bd.lock(r1, lockC, true);
      const count = 1 + rng.int(2);
      const tracked: number[] = [];
      const goals: [number, number][] = [];
      for (let i = 0; i < count; i++) {
        tracked.push(bd.tiles[pick()]);
        const g = pick();
        goals.push([bd.vr(g), bd.vc(g)]);
      }
      const before = Int32Array.from(bd.tiles);
      expect(solveLocally(bd, tracked, goals, r1, c1, r2, c2), `case ${k}`).toBe(true);
      tracked.forEach((t, i) => expect(bd.pos[t]).toBe(bd.cell(goals[i][0], goals[i][1])));
      for (let cell = 0; cell < rows * cols; cell++) {
        const r = bd.vr(cell);
        const c = bd.vc(cell);
        const inside = r >= r1 && r <= r2 && c >= c1 && c <= c2 && !(r === r1 && c === lockC);
        if (!inside) expect(bd.tiles[cell]).toBe(before[cell]);
      }
    }
  });

  it('reports false, leaving the board unchanged, when the window has no solution', () => {
    const goal = sliding.goal({ kind: 'sliding', rows: 4, cols: 4 });
    const bd = new Board(4, 4, goal.tiles);
    // A 1-row window: tiles cannot pass each other, so tile 15 can never reach cell 12.
    const before = Int32Array.from(bd.tiles);
    expect(solveLocally(bd, [15], [[3, 0]], 3, 0, 3, 3)).toBe(false);
    expect(bd.tiles).toEqual(before);
  });
});

describe('constructiveAnswer', () => {
  const ctx = { deadline: Date.now() + 60_000, maxMoves: 1e9, signal: new AbortController().signal };

  it('declines other puzzle kinds', () => {
    expect(constructiveAnswer({ kind: 'hanoi', pegs: 3, start: 'AAA', goal: 'CCC' }, ctx)).toHaveProperty('unsupported');
  });

  it('returns a replayable string with info for a small board, chunks for a large one', () => {
    const rng = createRng('answer');
    const small = sliding.scramble({ kind: 'sliding', rows: 6, cols: 6 }, rng);
    const a = constructiveAnswer(small, ctx);
    if (!('moves' in a)) throw new Error('expected moves');
    expect(typeof a.moves).toBe('string');
    expect(a.optimal).toBe(false);
    expect(a.note).toMatch(/not optimal/);
    expect(sliding.replay(small, a.moves as string).verdict).toBe('solved');
    const big = sliding.scramble({ kind: 'sliding', rows: 80, cols: 80 }, rng);
    const b = constructiveAnswer(big, ctx);
    if (!('moves' in b)) throw new Error('expected moves');
    const chunks = [...(b.moves as Iterable<string>)];
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.every((c) => c.length <= 1 << 20)).toBe(true);
    expect(sliding.replay(big, chunks.join('')).verdict).toBe('solved');
  });

  it('gives up when the deadline has passed, when cancelled, or when over the move limit', () => {
    const s = sliding.scramble({ kind: 'sliding', rows: 10, cols: 10 }, createRng('late'));
    expect(constructiveAnswer(s, { ...ctx, deadline: Date.now() - 1 })).toHaveProperty('giveUp');
    const ac = new AbortController();
    ac.abort();
    expect(constructiveAnswer(s, { ...ctx, signal: ac.signal })).toHaveProperty('giveUp');
    expect(constructiveAnswer(s, { ...ctx, maxMoves: 10 })).toHaveProperty('giveUp');
  });
});

/**
 * Brute force over every monotone path from the blank to (row, col) through free view cells: the largest
 * weighted gain (drag-weights.ts) of the tiles they shift, or null when all are blocked.
 */
function bestMonotoneGain(bd: Board, row: number, col: number): number | null {
  const br = bd.vr(bd.pos[0]);
  const bc = bd.vc(bd.pos[0]);
  const sr = Math.sign(row - br);
  const sc = Math.sign(col - bc);
  let best: number | null = null;
  const walk = (r: number, c: number, gain: number): void => {
    if (r === row && c === col) {
      best = best === null ? gain : Math.max(best, gain);
      return;
    }
    for (const [nr, nc] of [
      [r + sr, c],
      [r, c + sc],
    ]) {
      if ((nr === r && nc === c) || (sr !== 0 && (nr - row) * sr > 0) || (sc !== 0 && (nc - col) * sc > 0)) continue;
      if (!bd.free(nr, nc)) continue;
      walk(nr, nc, gain + shiftGain(bd, bd.tiles[bd.cell(nr, nc)], nr, nc, r, c));
    }
  };
  walk(br, bc, 0);
  return best;
}

describe('approachAlongBestPath', () => {
  it('takes a shortest path with the largest weighted gain (brute force), never through a fixed cell', () => {
    const rng = createRng('approach');
    let checked = 0;
    for (let k = 0; k < 60; k++) {
      const rows = 4 + rng.int(5);
      const cols = 4 + rng.int(5);
      const s = sliding.scramble({ kind: 'sliding', rows, cols }, rng);
      const bd = new Board(rows, cols, s.tiles);
      bd.setView(k % 2 === 1);
      // Fix a prefix of the view's top row (as while filling it), then weigh the tiles for that row.
      const fixed = rng.int(bd.vCols - 1);
      for (let c = 0; c < fixed; c++) if (bd.tiles[bd.cell(0, c)] !== 0) bd.lock(0, c, true);
      beginLine(bd, 0, 0);
      const blank = bd.pos[0];
      if (bd.locked[blank]) continue;
      const row = rng.int(bd.vRows);
      const col = rng.int(bd.vCols);
      if (!bd.free(row, col)) continue;
      const expected = bestMonotoneGain(bd, row, col);
      const before = Array.from(bd.tiles);
      const moved = approachAlongBestPath(bd, row, col);
      expect(moved).toBe(expected !== null);
      if (!moved) {
        expect(Array.from(bd.tiles)).toEqual(before);
        continue;
      }
      expect(bd.vr(bd.pos[0])).toBe(row);
      expect(bd.vc(bd.pos[0])).toBe(col);
      expect(bd.moves.length).toBe(Math.abs(row - bd.vr(blank)) + Math.abs(col - bd.vc(blank)));
      // Fixed cells kept their tiles.
      for (let c = 0; c < before.length; c++) if (bd.locked[c]) expect(bd.tiles[c]).toBe(before[c]);
      // The realised gain: replay the path on a copy and sum the shifts.
      const copy = new Board(rows, cols, before);
      copy.setView(bd.transposed);
      beginLine(copy, 0, 0);
      let gain = 0;
      for (const m of bd.moves.toString()) {
        const d = 'UDLR'.indexOf(m);
        const b = copy.pos[0];
        const to = d === 0 ? b - cols : d === 1 ? b + cols : d === 2 ? b - 1 : b + 1;
        gain += shiftGain(copy, copy.tiles[to], copy.vr(to), copy.vc(to), copy.vr(b), copy.vc(b));
        copy.moveReal(d);
      }
      expect(gain).toBeCloseTo(expected!, 9);
      checked++;
    }
    expect(checked).toBeGreaterThan(30);
  });
});
