/**
 * Sliding boards with a known solution, for referee tests that need a correct answer without a solver:
 * the blank walks a given path from the goal, and the answer is that path reversed and inverted.
 */
import type { SlidingState } from '../../src/core/types.ts';

const INVERSE: Record<string, string> = { U: 'D', D: 'U', L: 'R', R: 'L' };

/** The board reached from the goal by moving the blank along `path` (letters U D L R), and its solution. */
export function slidingBoard(rows: number, cols: number, path: string): { state: SlidingState; solution: string } {
  const tiles = Array.from({ length: rows * cols }, (_, i) => (i + 1) % (rows * cols));
  let blank = rows * cols - 1;
  for (const step of path) {
    const r = Math.floor(blank / cols);
    const c = blank % cols;
    const to = step === 'U' ? (r > 0 ? blank - cols : -1) : step === 'D' ? (r < rows - 1 ? blank + cols : -1) : step === 'L' ? (c > 0 ? blank - 1 : -1) : c < cols - 1 ? blank + 1 : -1;
    if (to < 0) throw new Error(`slidingBoard: the blank cannot move ${step} from cell ${blank}`);
    tiles[blank] = tiles[to];
    tiles[to] = 0;
    blank = to;
  }
  const solution = [...path].reverse().map((m) => INVERSE[m]).join('');
  return { state: { kind: 'sliding', rows, cols, tiles }, solution };
}

/**
 * The first `n` distinct 3×3 boards a breadth-first walk of the blank reaches from the goal, each with its
 * (shortest) solution: scrambles no two of which share an optimum through the store's cache.
 */
export function distinctBoards(n: number): Array<ReturnType<typeof slidingBoard>> {
  const out: Array<ReturnType<typeof slidingBoard>> = [];
  const seen = new Set<string>();
  for (let paths = ['']; out.length < n; ) {
    const next: string[] = [];
    for (const p of paths) {
      for (const m of 'UDLR') {
        let b: ReturnType<typeof slidingBoard>;
        try {
          b = slidingBoard(3, 3, p + m);
        } catch {
          continue;
        }
        const key = JSON.stringify(b.state);
        if (seen.has(key)) continue;
        seen.add(key);
        next.push(p + m);
        if (out.length < n) out.push(b);
      }
    }
    paths = next;
  }
  return out;
}
