import { describe, expect, it } from 'vitest';
import { slidingTable } from '../../src/puzzles/sliding/table.ts';
import { isSolvable } from '../../src/puzzles/sliding/parity.ts';
import { manhattan, manhattanLinearConflict } from '../../src/puzzles/sliding/bound.ts';
import { scrambleTiles, walkTiles } from '../../src/puzzles/sliding/scramble.ts';
import { sliding } from '../../src/puzzles/sliding/index.ts';
import { createRng } from '../../src/core/rng.ts';

const SHAPES: ReadonlyArray<readonly [number, number]> = [[2, 2], [2, 3], [3, 2], [2, 4], [4, 2], [3, 3]];

/** Independent oracle: plain BFS from the goal over string-keyed states (no ranking, no parity theory). */
function bfs(rows: number, cols: number): Map<string, number> {
  const n = rows * cols;
  const goal = Array.from({ length: n }, (_, i) => (i + 1) % n);
  const key = (a: number[]) => String.fromCharCode(...a.map((x) => 65 + x));
  const dist = new Map<string, number>([[key(goal), 0]]);
  let frontier = [goal];
  for (let d = 1; frontier.length > 0; d++) {
    const next: number[][] = [];
    for (const s of frontier) {
      const b = s.indexOf(0);
      const r = Math.floor(b / cols);
      const c = b % cols;
      for (const [dr, dc] of [[-1, 0], [1, 0], [0, -1], [0, 1]]) {
        const nr = r + dr;
        const nc = c + dc;
        if (nr < 0 || nr >= rows || nc < 0 || nc >= cols) continue;
        const t = s.slice();
        t[b] = t[nr * cols + nc];
        t[nr * cols + nc] = 0;
        const k = key(t);
        if (!dist.has(k)) {
          dist.set(k, d);
          next.push(t);
        }
      }
    }
    frontier = next;
  }
  return dist;
}

function* permutations(n: number): Generator<number[]> {
  const a = Array.from({ length: n }, (_, i) => i);
  const c = new Array<number>(n).fill(0);
  yield a.slice();
  // Heap's algorithm.
  for (let i = 0; i < n; ) {
    if (c[i] < i) {
      const j = i % 2 === 0 ? 0 : c[i];
      [a[j], a[i]] = [a[i], a[j]];
      yield a.slice();
      c[i]++;
      i = 0;
    } else {
      c[i] = 0;
      i++;
    }
  }
}

function applyMoves(tiles: number[], cols: number, moves: string): number[] {
  const t = tiles.slice();
  let b = t.indexOf(0);
  for (const m of moves) {
    const nb = m === 'U' ? b - cols : m === 'D' ? b + cols : m === 'L' ? b - 1 : b + 1;
    t[b] = t[nb];
    t[nb] = 0;
    b = nb;
  }
  return t;
}

const oracles = new Map(SHAPES.map(([r, c]) => [`${r}x${c}`, bfs(r, c)]));
const keyOf = (a: ArrayLike<number>) => String.fromCharCode(...Array.from(a, (x) => 65 + x));

describe('isSolvable (parity rule)', () => {
  it('agrees with BFS reachability on every arrangement of 2x2, 2x3, 3x2, 2x4, 4x2 and 3x3', () => {
    for (const [rows, cols] of SHAPES) {
      const reach = oracles.get(`${rows}x${cols}`)!;
      let solvable = 0;
      for (const p of permutations(rows * cols)) {
        const s = isSolvable(p, rows, cols);
        if (s !== reach.has(keyOf(p))) throw new Error(`${rows}x${cols} ${p}: rule says ${s}`);
        if (s) solvable++;
      }
      expect(solvable).toBe(reach.size);
    }
  });
});

describe('slidingTable', () => {
  it('has 181,440 states and max depth 31 for 3x3, 12 states and max depth 6 for 2x2', () => {
    expect(slidingTable(3, 3).states).toBe(181440);
    expect(slidingTable(3, 3).maxDepth).toBe(31);
    expect(slidingTable(2, 2).states).toBe(12);
    expect(slidingTable(2, 2).maxDepth).toBe(6);
  });

  it('matches the independent BFS distance on every state of every small shape', () => {
    for (const [rows, cols] of SHAPES) {
      const table = slidingTable(rows, cols);
      const reach = oracles.get(`${rows}x${cols}`)!;
      expect(table.states).toBe(reach.size);
      expect(table.maxDepth).toBe([...reach.values()].reduce((a, b) => Math.max(a, b), 0));
      for (const [k, d] of reach) {
        const tiles = Array.from(k, (ch) => ch.charCodeAt(0) - 65);
        if (table.distance(tiles) !== d) throw new Error(`${rows}x${cols} ${tiles}: ${table.distance(tiles)} != ${d}`);
      }
    }
  });

  it('returns -1 for unsolvable arrangements and is cached per shape', () => {
    expect(slidingTable(3, 3).distance([2, 1, 3, 4, 5, 6, 7, 8, 0])).toBe(-1);
    expect(() => slidingTable(3, 3).solve([2, 1, 3, 4, 5, 6, 7, 8, 0])).toThrow(RangeError);
    expect(slidingTable(3, 3)).toBe(slidingTable(3, 3));
    expect(() => slidingTable(4, 4)).toThrow(RangeError);
    expect(() => slidingTable(3, 3).distance([1, 2, 3])).toThrow(RangeError);
  });

  it('solve() returns an optimal move string that the replayer accepts as solved', () => {
    for (const [rows, cols] of SHAPES) {
      const table = slidingTable(rows, cols);
      const rng = createRng(`solve-${rows}x${cols}`);
      for (let i = 0; i < 300; i++) {
        const start = sliding.scramble({ kind: 'sliding', rows, cols }, rng);
        const moves = table.solve(start.tiles);
        expect(moves.length).toBe(table.distance(start.tiles));
        expect(applyMoves([...start.tiles], cols, moves)).toEqual([...sliding.goal({ kind: 'sliding', rows, cols }).tiles]);
        expect(sliding.replay(start, moves)).toEqual({ verdict: 'solved', moves: moves.length });
      }
    }
  });
});

describe('manhattanLinearConflict', () => {
  it('computes a known example', () => {
    // Row 0 holds 2 3 1 (all in their goal row): Manhattan 1+1+2 = 4, one tile must leave the row: +2.
    expect(manhattan([2, 3, 1, 4, 5, 6, 7, 8, 0], 3, 3)).toBe(4);
    expect(manhattanLinearConflict([2, 3, 1, 4, 5, 6, 7, 8, 0], 3, 3)).toBe(6);
    expect(manhattanLinearConflict([1, 2, 3, 4, 5, 6, 7, 8, 0], 3, 3)).toBe(0);
  });

  it('lies between Manhattan and the exact optimum on many random small states', () => {
    for (const [rows, cols] of SHAPES) {
      const table = slidingTable(rows, cols);
      const rng = createRng(`lc-${rows}x${cols}`);
      for (let i = 0; i < 2000; i++) {
        const t = scrambleTiles(rows, cols, rng);
        const h = manhattanLinearConflict(t, rows, cols);
        const m = manhattan(t, rows, cols);
        const d = table.distance(t);
        if (!(m <= h && h <= d && (h - d) % 2 === 0)) throw new Error(`${rows}x${cols} ${t}: M ${m} LC ${h} opt ${d}`);
      }
    }
  });

  it('never exceeds the length of the walk that produced a state on larger boards', () => {
    const rng = createRng('lc-walk');
    for (const [rows, cols] of [[4, 4], [5, 7], [9, 3]] as const) {
      for (let i = 0; i < 300; i++) {
        const k = rng.int(60);
        const { tiles } = walkTiles(rows, cols, k, rng);
        const h = manhattanLinearConflict(tiles, rows, cols);
        expect(h).toBeLessThanOrEqual(k);
        expect(h).toBeGreaterThanOrEqual(manhattan(tiles, rows, cols));
      }
    }
  });

  it('handles a 1000x1000 board', () => {
    const t = scrambleTiles(1000, 1000, createRng(7));
    expect(manhattanLinearConflict(t, 1000, 1000)).toBeGreaterThan(manhattan(t, 1000, 1000));
  });
});
