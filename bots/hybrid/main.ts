/**
 * hybrid: sliding boards of any shape, strongest from 5×5 to 10×10. Reduces the board line by line with a
 * beam search over whole states, guided by each step's exact cost table, then solves the last 4×4 block
 * optimally with the pattern databases ida-star builds (see plan.ts, beam.ts, finish.ts). Boards of up to
 * 16 cells are solved optimally; on boards beyond 10×10 the constructive algorithm first fills lines until
 * 10×10 is left. Takes no flags; logs only to stderr.
 */
import { runBot, sideWithin, specOfClass, warmUpBySolving } from '../../src/sdk/index.ts';
import type { BotDefinition } from '../../src/sdk/index.ts';
import { defaultCacheDir } from '../../src/solvers/sliding/pdb-cache.ts';
import { PdbLoader } from '../shared/pdb-loader.ts';
import { HybridSolver } from './hybrid.ts';
import { hybridAnswer, MAX_CELLS } from './solve.ts';

const log = (line: string): void => void process.stderr.write(`hybrid: ${line}\n`);
if (process.argv.length > 2) {
  log(`takes no flags, got ${process.argv.slice(2).join(' ')}`);
  process.exit(2);
}
const loader = new PdbLoader(defaultCacheDir(), log);
const solver = new HybridSolver(() => loader.get());

const solve: BotDefinition['solve'] = (puzzle, ctx) => hybridAnswer(solver, puzzle, ctx);
// One throwaway solve for the JIT, on boards up to 6x6 (bigger ones search for seconds anyway).
const warmSearch = warmUpBySolving(solve, { maxSize: 6 });

void runBot({
  name: 'hybrid',
  version: '1.0.0',
  capabilities: [{ kind: 'sliding', maxSize: sideWithin(MAX_CELLS) }],
  solve,
  // The untimed warm-up: load the 4x4 pattern databases that finish every board of 4x4 or more, then warm the search.
  async prepare(request) {
    const spec = specOfClass(request.puzzleClass);
    if (spec && (spec.rows ?? 0) >= 4 && (spec.cols ?? 0) >= 4) await loader.ready();
    await warmSearch(request);
  },
});
