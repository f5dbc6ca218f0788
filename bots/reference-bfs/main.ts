/**
 * reference-bfs: the smallest useful bot, and the SDK's worked example. It solves sliding boards of at most
 * 9 cells (2×2, 2×3, 3×3, …) optimally by plain breadth-first search and declines everything else.
 * Run by the arena as `node --import tsx bots/reference-bfs/main.ts` with ARENA_URL/ARENA_TOKEN set.
 */
import type { PuzzleState, SlidingState } from '../../src/core/types.ts';
import { runBot, warmUpBySolving } from '../../src/sdk/index.ts';
import type { SolveAnswer } from '../../src/sdk/index.ts';

/** Where the blank goes, and the index step that takes it there. */
const DIRS = [['U', -1, 0], ['D', 1, 0], ['L', 0, -1], ['R', 0, 1]] as const;

/** Optimal blank moves from `p` to the goal (1..N−1 then 0), or undefined if the goal is unreachable. */
function bfs(p: SlidingState): string | undefined {
  const goal = [...Array(p.tiles.length - 1).keys()].map((i) => i + 1).concat(0).join(',');
  const start = p.tiles.join(',');
  const parent = new Map<string, [string, string] | null>([[start, null]]);
  for (let frontier = [start]; frontier.length > 0; ) {
    const next: string[] = [];
    for (const key of frontier) {
      if (key === goal) {
        let moves = '';
        for (let k = key, step = parent.get(k); step; k = step[0], step = parent.get(k)) moves = step[1] + moves;
        return moves;
      }
      const tiles = key.split(',').map(Number);
      const blank = tiles.indexOf(0);
      const r = Math.floor(blank / p.cols), c = blank % p.cols;
      for (const [letter, dr, dc] of DIRS) {
        if (r + dr < 0 || r + dr >= p.rows || c + dc < 0 || c + dc >= p.cols) continue;
        const t = tiles.slice();
        const j = blank + dr * p.cols + dc;
        [t[blank], t[j]] = [t[j]!, 0];
        const k = t.join(',');
        if (parent.has(k)) continue;
        parent.set(k, [key, letter]);
        next.push(k);
      }
    }
    frontier = next;
  }
  return undefined;
}

function solve(puzzle: PuzzleState): SolveAnswer {
  if (puzzle.kind !== 'sliding' || puzzle.tiles.length > 9) return { unsupported: 'only sliding boards of ≤ 9 cells' };
  const moves = bfs(puzzle);
  return moves === undefined ? { giveUp: 'goal unreachable (wrong parity)' } : { moves, optimal: true };
}

// prepare: the untimed warm-up, one throwaway solve of the class, so the JIT is done before timed solves.
void runBot({ name: 'reference-bfs', version: '1.0.0', capabilities: [{ kind: 'sliding', maxSize: 3 }], solve, prepare: warmUpBySolving(solve) });
