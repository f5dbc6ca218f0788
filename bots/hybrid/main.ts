/**
 * hybrid: sliding boards of any shape, strongest from 5×5 to 10×10. Reduces the board line by line with a
 * beam search over whole states, guided by each step's exact cost table, then solves the last 4×4 block
 * optimally with ida-star's pattern databases (see plan.ts, beam.ts, finish.ts). Boards of up to 16 cells
 * are solved optimally; on boards beyond 10×10 the constructive algorithm first fills lines until 10×10 is
 * left. Logs only to stderr.
 */
import type { PuzzleState } from '../../src/core/types.ts';
import { sliding } from '../../src/puzzles/sliding/index.ts';
import { runBot } from '../../src/sdk/index.ts';
import type { SolveAnswer, SolveContext } from '../../src/sdk/index.ts';
import { defaultCacheDir } from '../../src/solvers/sliding/pdb-cache.ts';
import { PdbLoader } from '../ida-star/pdb-loader.ts';
import { HybridSolver } from './solve.ts';

/** Largest board accepted, in cells (as the constructive bot, which starts the big ones). */
const MAX_CELLS = 1_000_000;

const log = (line: string): void => void process.stderr.write(`hybrid: ${line}\n`);
if (process.argv.length > 2) {
  log(`takes no flags, got ${process.argv.slice(2).join(' ')}`);
  process.exit(2);
}
const loader = new PdbLoader(defaultCacheDir(), log);
const solver = new HybridSolver(() => loader.get());

await runBot({
  name: 'hybrid',
  version: '1.0.0',
  capabilities: [{ kind: 'sliding', maxSize: MAX_CELLS }],
  async solve(puzzle: PuzzleState, ctx: SolveContext): Promise<SolveAnswer> {
    if (puzzle.kind !== 'sliding') return { unsupported: `hybrid solves sliding puzzles only, not ${puzzle.kind}` };
    const parsed = sliding.parse(puzzle);
    if (!parsed.ok) return { giveUp: parsed.reason };
    const { rows, cols, tiles } = parsed.value;
    if (rows * cols > MAX_CELLS) return { unsupported: `boards of at most ${MAX_CELLS} cells` };
    const started = Date.now();
    // Aim to answer within 60% of the limit (at most 8 s): room for the final block and for a busy machine.
    const budgetMs = Math.min(8000, ctx.timeLimitMs * 0.6);
    const margin = Math.min(500, Math.max(20, ctx.timeLimitMs * 0.05));
    const r = await solver.solve(rows, cols, tiles, { deadline: ctx.deadline - margin, budgetMs, signal: ctx.signal });
    if ('giveUp' in r) return r;
    if (r.moves.length > ctx.maxMoves) return { giveUp: `solution of ${r.moves.length} moves exceeds maxMoves ${ctx.maxMoves}` };
    return { moves: r.moves, optimal: r.optimal, nodes: r.nodes, computeMs: Date.now() - started, note: r.note };
  },
});
