import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/rng.ts';
import { FINAL_SIDE, makePlan } from '../../bots/hybrid/plan.ts';
import type { Step } from '../../bots/hybrid/plan.ts';
import { buildStepTable, stepEstimate, UNREACHABLE } from '../../bots/hybrid/step-table.ts';

/**
 * Independent oracle for a step's exact cost: breadth-first search over FULL board states (every tile
 * distinct, fixed cells never entered by the blank) from `start`, until the step's tiles are all home. Any
 * full-state path projects onto a path of the abstract (blank + step tiles) space of the same length and
 * vice versa, so the two must agree.
 */
function fullStateDistance(rows: number, cols: number, step: Step, start: readonly number[]): number {
  const key = (t: readonly number[]): string => t.join(',');
  const done = (t: readonly number[]): boolean => step.tiles.every((tile, i) => t[step.homes[i]] === tile);
  if (done(start)) return 0;
  const seen = new Set([key(start)]);
  let frontier = [start];
  for (let d = 1; frontier.length > 0; d++) {
    const next: number[][] = [];
    for (const s of frontier) {
      const b = s.indexOf(0);
      const r = Math.floor(b / cols);
      const c = b % cols;
      for (const [dr, dc] of [[-1, 0], [1, 0], [0, -1], [0, 1]]) {
        const rr = r + dr;
        const cc = c + dc;
        if (rr < 0 || cc < 0 || rr >= rows || cc >= cols) continue;
        const to = rr * cols + cc;
        if (step.frozen[to]) continue;
        const t = s.slice();
        t[b] = t[to];
        t[to] = 0;
        if (done(t)) return d;
        const k = key(t);
        if (!seen.has(k)) {
          seen.add(k);
          next.push(t);
        }
      }
    }
    frontier = next;
  }
  return UNREACHABLE;
}

/** A random arrangement of the board with the cells in `fixed` holding their goal tiles. */
function randomWithFixed(rows: number, cols: number, fixed: Uint8Array, seed: string): number[] {
  const rng = createRng(seed);
  const n = rows * cols;
  const tiles = new Array<number>(n);
  const free: number[] = [];
  const loose: number[] = [];
  for (let c = 0; c < n; c++) {
    if (fixed[c]) tiles[c] = c + 1;
    else {
      free.push(c);
      loose.push(c === n - 1 ? 0 : c + 1);
    }
  }
  for (let i = loose.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [loose[i], loose[j]] = [loose[j], loose[i]];
  }
  free.forEach((c, i) => (tiles[c] = loose[i]));
  return tiles;
}

function tableDistance(rows: number, cols: number, step: Step, tiles: readonly number[]): number {
  const tb = buildStepTable(rows, cols, step);
  const L = tb.local;
  const b = L[tiles.indexOf(0)];
  const a = L[tiles.indexOf(step.tiles[0])];
  if (tb.k === 1) return tb.dist[b * tb.m + a];
  return tb.dist[(b * tb.m + a) * tb.m + L[tiles.indexOf(step.tiles[1])]];
}

describe('hybrid plan - makePlan', () => {
  for (const [rows, cols] of [
    [5, 5],
    [10, 10],
    [4, 9],
    [9, 4],
    [2, 12],
    [12, 2],
    [3, 7],
    [6, 8],
    [4, 4],
    [2, 2],
  ] as const) {
    it(`${rows}x${cols}: every tile outside a final block of at most 4x4 is placed by exactly one step, lines in order`, () => {
      const plan = makePlan(rows, cols);
      const n = rows * cols;
      expect(rows - plan.top).toBeLessThanOrEqual(FINAL_SIDE);
      expect(cols - plan.left).toBeLessThanOrEqual(FINAL_SIDE);
      const placed = new Uint8Array(n + 1);
      const frozen = new Uint8Array(n);
      for (const [k, st] of plan.steps.entries()) {
        // The frozen mask is exactly the union of the earlier steps' homes.
        expect(Array.from(st.frozen)).toEqual(Array.from(frozen));
        expect(st.tiles.length === 1 || st.tiles.length === 2).toBe(true);
        for (const [i, t] of st.tiles.entries()) {
          expect(st.homes[i]).toBe(t - 1);
          expect(placed[t]).toBe(0);
          placed[t] = 1;
          expect(plan.stepOf[t]).toBe(k);
          expect(plan.lineOf[t]).toBe(st.line);
          frozen[st.homes[i]] = 1;
        }
        if (k > 0) expect(st.line).toBeGreaterThanOrEqual(plan.steps[k - 1].line);
      }
      for (let t = 1; t < n; t++) {
        const inBlock = Math.floor((t - 1) / cols) >= plan.top && (t - 1) % cols >= plan.left;
        expect(placed[t] === 1, `tile ${t}`).toBe(!inBlock);
        if (inBlock) expect(plan.stepOf[t]).toBe(plan.steps.length);
      }
      // Each line ends with its last two tiles placed together.
      for (let l = 0; l < plan.lines; l++) {
        const last = plan.steps.filter((s) => s.line === l).at(-1)!;
        expect(last.tiles).toHaveLength(2);
      }
    });
  }
});

describe('hybrid step table - buildStepTable', () => {
  // Steps on small boards, so full-state breadth-first search is affordable as the oracle.
  const cases: [number, number, number[], number[]][] = [
    [3, 3, [1], []],
    [3, 3, [2, 3], [0]],
    [3, 4, [1], []],
    [3, 4, [3, 4], [0, 1]],
    [4, 3, [7, 10], [0, 1, 2, 3]],
    [2, 4, [1, 5], []],
  ];
  for (const [rows, cols, tiles, fixed] of cases) {
    it(`${rows}x${cols}, tiles ${tiles.join('+')} with ${fixed.length} fixed cells: equals full-state BFS on random starts`, () => {
      const frozen = new Uint8Array(rows * cols);
      for (const c of fixed) frozen[c] = 1;
      const step: Step = { tiles, homes: tiles.map((t) => t - 1), frozen, line: 0 };
      for (let i = 0; i < 12; i++) {
        const start = randomWithFixed(rows, cols, frozen, `step table ${rows}x${cols} ${tiles} ${i}`);
        expect(tableDistance(rows, cols, step, start), JSON.stringify(start)).toBe(fullStateDistance(rows, cols, step, start));
      }
    });
  }

  it('the future-cost estimate of a one-tile step is the table value with the blank next to the previous home', () => {
    const rows = 4;
    const cols = 4;
    const step: Step = { tiles: [2], homes: [1], frozen: Uint8Array.from([1, ...new Array(15).fill(0)]), line: 0 };
    const tb = buildStepTable(rows, cols, step);
    const est = stepEstimate(rows, cols, step, [0], tb);
    // After tile 1 went home to cell 0, the blank is on cell 1 or cell 4.
    for (let c = 1; c < 16; c++) {
      const vals = [1, 4].filter((b) => b !== c).map((b) => tb.dist[tb.local[b] * tb.m + tb.local[c]]);
      expect(est[c]).toBe(Math.min(...vals));
    }
    // Cell 0 is fixed at this step: valued at a nearest free cell plus the way there.
    expect([est[1] + 1, est[4] + 1]).toContain(est[0]);
  });
});
