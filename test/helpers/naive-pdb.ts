import { makeBoard } from '../../src/solvers/sliding/board.ts';
import { rankCells, rankWeights } from '../../src/solvers/sliding/pdb-rank.ts';

/**
 * Independent oracle on the abstraction itself: a 0-1 breadth-first search over (pattern tiles' cells,
 * blank's cell) with string keys, as the textbook states it: the blank steps onto a free cell for 0 and
 * swaps with a pattern tile for 1, from the goal (pattern home, blank home). No ranking, masks or regions,
 * so it shares nothing with the builder; the value of a placement is its minimum over blank cells.
 */
export function naivePdb(rows: number, cols: number, pattern: readonly number[]): Map<string, number> {
  const board = makeBoard(rows, cols);
  const k = pattern.length;
  const start = [...pattern.map((t) => t - 1), rows * cols - 1];
  const dist = new Map<string, number>([[start.join(','), 0]]);
  let layer = [start];
  for (let d = 0; layer.length > 0; d++) {
    const next: number[][] = [];
    for (let i = 0; i < layer.length; i++) {
      const s = layer[i];
      if (dist.get(s.join(',')) !== d) continue;
      const blank = s[k];
      for (let dir = 0; dir < 4; dir++) {
        const to = board.neighbor[blank * 4 + dir];
        if (to < 0) continue;
        const t = s.slice();
        t[k] = to;
        const tile = s.indexOf(to);
        if (tile >= 0 && tile < k) t[tile] = blank;
        const cost = tile >= 0 && tile < k ? 1 : 0;
        const key = t.join(',');
        const old = dist.get(key);
        if (old === undefined || old > d + cost) {
          dist.set(key, d + cost);
          (cost === 0 ? layer : next).push(t);
        }
      }
    }
    layer = next;
  }
  const out = new Map<string, number>();
  for (const [key, d] of dist) {
    const cells = key.split(',').slice(0, k).join(',');
    out.set(cells, Math.min(out.get(cells) ?? Infinity, d));
  }
  return out;
}


/** {@link naivePdb} laid out as a table (placement rank → value), to compare with a builder's bytes. */
export function naiveTable(rows: number, cols: number, pattern: readonly number[]): Uint8Array {
  const oracle = naivePdb(rows, cols, pattern);
  const w = rankWeights(rows * cols, pattern.length);
  const out = new Uint8Array(oracle.size);
  for (const [cells, d] of oracle) out[rankCells(cells.split(',').map(Number), pattern.length, w)] = d;
  return out;
}
