import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/rng.ts';
import type { WarehouseState } from '../../src/core/types.ts';
import { warehouse } from '../../src/puzzles/warehouse/index.ts';
import { isWarehouseSize, warehouseLayout } from '../../src/puzzles/warehouse/layout.ts';
import { WarehouseReplayer } from '../../src/puzzles/warehouse/replayer.ts';
import { warehouseInverseText, warehouseMovesText, warehouseWalk } from '../../src/puzzles/warehouse/walk.ts';

const board = (size: number, cells: number[]): WarehouseState => ({ kind: 'warehouse', size, cells });

/** The 4×4 goal: one 2×2 block in the middle, ring corridor around it. */
const GOAL4 = [0, 0, 0, 0, 0, 1, 2, 0, 0, 3, 4, 0, 0, 0, 0, 0];

describe('warehouseLayout', () => {
  it("has the thesis's counts: n² − 2n√n + n tiles, 2n√n − n empty cells, (√n − 1)² blocks", () => {
    for (const n of [4, 9, 16, 25, 36, 49, 64, 81, 100, 400]) {
      const m = Math.sqrt(n);
      const l = warehouseLayout(n);
      expect(l.m).toBe(m);
      expect(l.tiles).toBe(n * n - 2 * n * m + n);
      expect(l.goalCells.filter((t) => t === 0).length).toBe(2 * n * m - n);
      expect(l.blockCells.length).toBe((m - 1) ** 2 * m * m);
      // Corridors frame the board: first and last lines are corridors, and (m − 1) blocks per axis.
      expect(l.corridorLine[0]).toBe(1);
      expect(l.corridorLine[n - 1]).toBe(1);
      expect(l.corridorLine.reduce((a, b) => a + b, 0)).toBe(m);
    }
  });

  it('numbers block cells 1.. in board row-major order', () => {
    expect(Array.from(warehouseLayout(4).goalCells)).toEqual(GOAL4);
    const l = warehouseLayout(9);
    // Rows 1–3 and 5–7 are block rows; columns 1–3 and 5–7 are block columns.
    expect(Array.from(l.goalCells.slice(9, 18))).toEqual([0, 1, 2, 3, 0, 4, 5, 6, 0]);
    expect(Array.from(l.goalCells.slice(36, 45))).toEqual(new Array(9).fill(0));
    expect(l.goalCells[8 * 9 + 8 - 10]).toBe(36);
    for (let t = 1; t <= l.tiles; t++) expect(l.goalCells[l.homeOf[t]]).toBe(t);
  });

  it('accepts only perfect squares from 4 to 400', () => {
    expect([4, 9, 16, 100, 400].every(isWarehouseSize)).toBe(true);
    expect([0, 1, 3, 8, 2.25, 441, '16', null].some(isWarehouseSize)).toBe(false);
    expect(() => warehouseLayout(8)).toThrow(RangeError);
  });
});

describe('warehouse.parse', () => {
  it('accepts a goal, and tiles standing in corridors', () => {
    expect(warehouse.parse(board(4, GOAL4))).toEqual({ ok: true, value: board(4, GOAL4) });
    const moved = GOAL4.slice();
    moved[1] = 1;
    moved[5] = 0;
    expect(warehouse.parse(board(4, moved)).ok).toBe(true);
  });

  it('rejects bad input with a one-line reason', () => {
    const dup = GOAL4.slice();
    dup[0] = 4;
    const missing = GOAL4.slice();
    missing[10] = 0;
    const cases: [unknown, RegExp][] = [
      [null, /JSON object/],
      [[0, 1], /JSON object/],
      [{ kind: 'sliding', size: 4, cells: GOAL4 }, /expected kind "warehouse"/],
      [{ kind: 'warehouse', size: 8, cells: [] }, /"size" must be a perfect square from 4 to 400 .*got 8/],
      [{ kind: 'warehouse', size: 441, cells: [] }, /got 441/],
      [{ kind: 'warehouse', size: 4, cells: 'x' }, /"cells" must be an array/],
      [{ kind: 'warehouse', size: 4, cells: GOAL4.slice(1) }, /15 entries, expected 16 \(4x4\)/],
      [{ kind: 'warehouse', size: 4, cells: [...GOAL4.slice(0, 15), 1.5] }, /cells\[15\] is 1.5; expected 0 \(empty\) or a tile 1..4/],
      [{ kind: 'warehouse', size: 4, cells: [...GOAL4.slice(0, 15), 5] }, /cells\[15\] is 5/],
      [{ kind: 'warehouse', size: 4, cells: [...GOAL4.slice(0, 15), -1] }, /cells\[15\] is -1/],
      [{ kind: 'warehouse', size: 4, cells: dup }, /tile 1 appears twice|tile 4 appears twice/],
      [{ kind: 'warehouse', size: 4, cells: missing }, /tile 4 is missing/],
    ];
    for (const [json, reason] of cases) {
      const r = warehouse.parse(json);
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.reason).toMatch(reason);
        expect(r.reason).not.toContain('\n');
      }
    }
  });

  it('normalizes specs', () => {
    expect(warehouse.normalizeSpec({ kind: 'warehouse', size: 16 })).toEqual({ ok: true, value: { kind: 'warehouse', size: 16 } });
    for (const size of [undefined, 5, 1, 900]) expect(warehouse.normalizeSpec({ kind: 'warehouse', size }).ok).toBe(false);
  });
});

describe('warehouse moves notation', () => {
  it('parses spaced, packed, comma-separated and lower-case tokens to the canonical string', () => {
    for (const text of ['17U 4L', '17U4L', ' 17u,4l ', '17U\n 4L']) {
      expect(warehouse.parseMoves(text)).toEqual({ ok: true, value: '17U 4L' });
    }
    expect(warehouse.parseMoves('')).toEqual({ ok: true, value: '' });
    expect(warehouse.formatMoves('17U 4L')).toBe('17U 4L');
  });

  it('rejects malformed tokens', () => {
    const cases: [string, RegExp][] = [
      ['17U 4X', /move 1: expected a tile number and a direction U\/D\/L\/R \(like 17U\) at character 3/],
      ['U', /move 0: expected/],
      ['17U 4', /move 1: expected .* got "4"/],
    ];
    for (const [text, reason] of cases) {
      const r = warehouse.parseMoves(text);
      expect(!r.ok && r.reason).toMatch(reason);
    }
  });

  it('round-trips walks', () => {
    const w = warehouseWalk(warehouseLayout(16), 300, createRng(4));
    const text = warehouseMovesText(w.tiles, w.dirs);
    expect(warehouse.parseMoves(warehouse.formatMoves(text))).toEqual({ ok: true, value: text });
    const packed = warehouse.parseMoves(text.replaceAll(' ', '').toLowerCase());
    expect(packed).toEqual({ ok: true, value: text });
  });
});

describe('warehouse.replayer', () => {
  it('catches each illegal move at its index', () => {
    const start = board(4, GOAL4);
    const cases: [string, number, string][] = [
      ['1U 1U', 1, "move 1 '1U': tile 1 cannot move up off the board"],
      ['1U 2D', 1, "move 1 '2D': tile 2 cannot move down onto tile 4"],
      ['1U 5D', 1, "move 1 '5D': unknown tile 5 (tiles are 1..4)"],
      ['1U 0D', 1, "move 1 '0D': tile 0 is not a tile (0 marks an empty cell) (tiles are 1..4)"],
      ['1U 2X', 1, 'move 1: unexpected character "X" (moves look like "17U 4L", directions U D L R)'],
      ['1U 2u', 1, 'move 1: unexpected character "u" (moves look like "17U 4L", directions U D L R)'],
      ['1U D', 1, "move 1 'D': direction without a tile number"],
      ['1U 2 D', 1, 'move 1: tile 2 has no direction letter (U, D, L or R must follow the number)'],
      ['1U 99999999999U', 1, 'move 1: tile number 9999999999... is far too large (tiles are 1..4)'],
    ];
    for (const [moves, index, reason] of cases) {
      expect(warehouse.replay(start, moves)).toEqual({ verdict: 'invalid', moves: index, index, reason });
    }
    expect(warehouse.replay(start, '1U 1D 1U 17')).toEqual({
      verdict: 'invalid', moves: 3, index: 3, reason: 'move 3: dangling tile number 17 at the end (no direction letter)',
    });
    expect(warehouse.replay(start, '1U')).toEqual({ verdict: 'invalid', moves: 1, reason: 'not solved after the last move: 1 tile(s) off their home cell' });
    expect(warehouse.replayer(start).push([[1, 2]])?.index).toBe(0);
  });

  it('carries a partial number across chunks, in every split', () => {
    const layout = warehouseLayout(16);
    const w = warehouseWalk(layout, 400, createRng(8));
    const solution = warehouseInverseText(w.tiles, w.dirs).replaceAll(' ', '');
    const start = board(16, Array.from(w.cells));
    for (const size of [1, 2, 3, 7, 50]) {
      const r = warehouse.replayer(start);
      for (let i = 0; i < solution.length; i += size) expect(r.push(solution.slice(i, i + size))).toBeNull();
      expect(r.finish()).toEqual({ verdict: 'solved', moves: 400 });
    }
    // Tile 1x split as "1" | "xU": an illegal step in the second chunk still gets its whole-solution index.
    const r = warehouse.replayer(board(4, GOAL4));
    expect(r.push('1U 1')).toBeNull();
    expect(r.push('U')).toMatchObject({ index: 1, reason: "move 1 '1U': tile 1 cannot move up off the board" });
    expect(r.count).toBe(1);
  });

  it('tracks the board: replaying a walk from the goal ends on the walk board', () => {
    const layout = warehouseLayout(9);
    for (let seed = 0; seed < 50; seed++) {
      const w = warehouseWalk(layout, 60, createRng(seed));
      const r = new WarehouseReplayer(board(9, Array.from(layout.goalCells)));
      expect(r.push(warehouseMovesText(w.tiles, w.dirs))).toBeNull();
      expect(r.current()).toEqual(Array.from(w.cells));
      expect(r.isSolved()).toBe(warehouse.isSolved(board(9, r.current())));
    }
  });
});

describe('warehouse.scramble', () => {
  it('places tiles on block cells only, corridors empty, over thousands of seeds', () => {
    for (let seed = 0; seed < 2000; seed++) {
      const size = [4, 9, 16][seed % 3];
      const s = warehouse.scramble({ kind: 'warehouse', size }, createRng(seed));
      expect(warehouse.parse(JSON.parse(JSON.stringify(s)))).toEqual({ ok: true, value: s });
      const goal = warehouseLayout(size).goalCells;
      let offBlock = 0;
      for (let c = 0; c < goal.length; c++) if ((s.cells[c] === 0) !== (goal[c] === 0)) offBlock++;
      expect(offBlock).toBe(0);
      expect(warehouse.bound(s).lowerBound).toBeGreaterThanOrEqual(2);
    }
  });

  it('is reproducible and pinned for seed 1', () => {
    const a = warehouse.scramble({ kind: 'warehouse', size: 4 }, createRng(1));
    expect(warehouse.scramble({ kind: 'warehouse', size: 4 }, createRng(1))).toEqual(a);
    expect(a.cells).toEqual([0, 0, 0, 0, 0, 1, 2, 0, 0, 4, 3, 0, 0, 0, 0, 0]);
    const b = warehouse.scramble({ kind: 'warehouse', size: 9 }, createRng(1));
    expect(b.cells.filter((t) => t !== 0).slice(0, 8)).toEqual([17, 28, 7, 6, 21, 30, 26, 1]);
  });

  it('puts each tile on each block cell uniformly (4x4, chi-square, 3 dof, p = 0.001)', () => {
    const samples = 4000;
    const counts = Array.from({ length: 5 }, () => [0, 0, 0, 0]);
    const blocks = Array.from(warehouseLayout(4).blockCells);
    const rng = createRng(99);
    for (let i = 0; i < samples; i++) {
      const s = warehouse.scramble({ kind: 'warehouse', size: 4 }, rng);
      blocks.forEach((cell, k) => counts[s.cells[cell]][k]++);
    }
    const critical = 16.266; // chi-square quantile, 3 degrees of freedom, p = 0.001
    // The identity is redrawn, so each tile is home with probability 5/23 instead of 6/24: use exact expectations.
    for (let t = 1; t <= 4; t++) {
      const chi2 = counts[t].reduce((acc, c, k) => {
        const expected = samples * (blocks[k] === warehouseLayout(4).homeOf[t] ? 5 / 23 : 6 / 23);
        return acc + (c - expected) ** 2 / expected;
      }, 0);
      expect(chi2).toBeLessThan(critical);
    }
  });
});

describe('warehouse.walk', () => {
  it('makes k legal steps without undoing the previous one; the reversed walk solves it', () => {
    for (let seed = 0; seed < 100; seed++) {
      const size = [4, 9, 16, 25][seed % 4];
      const k = 1 + (seed % 40);
      const w = warehouseWalk(warehouseLayout(size), k, createRng(seed));
      for (let i = 1; i < k; i++) expect(w.tiles[i] === w.tiles[i - 1] && w.dirs[i] === (w.dirs[i - 1] ^ 1)).toBe(false);
      const s = board(size, Array.from(w.cells));
      expect(warehouse.parse(s).ok).toBe(true);
      expect(warehouse.bound(s).lowerBound).toBeLessThanOrEqual(k);
      expect(warehouse.replay(s, warehouseInverseText(w.tiles, w.dirs))).toEqual({ verdict: 'solved', moves: k });
    }
    const a = warehouse.walk({ kind: 'warehouse', size: 9 }, 30, createRng(3));
    expect(warehouse.walk({ kind: 'warehouse', size: 9 }, 30, createRng(3))).toEqual(a);
  });
});

describe('warehouse.describe and className', () => {
  it('shows corridors as dots and names the class by size', () => {
    const s = board(4, [0, 1, 0, 0, 0, 0, 2, 0, 0, 3, 4, 0, 0, 0, 0, 0]);
    expect(warehouse.className(s)).toBe('warehouse 4');
    expect(warehouse.describe(s)).toBe('. 1 . .\n. _ 2 .\n. 3 4 .\n. . . .');
    expect(warehouse.isSolved(warehouse.goal({ kind: 'warehouse', size: 9 }))).toBe(true);
    expect(warehouse.isSolved(s)).toBe(false);
    expect(warehouse.describe(warehouse.goal({ kind: 'warehouse', size: 100 })).split('\n').length).toBe(31);
  });
});
