/**
 * ida-star: optimal IDA* for sliding boards up to 16 cells (4×4 with additive pattern databases and the
 * reflection lookup: 7-8 when prepare-78 built them, else 6-6-3, built once into .cache/pdb/), the seed's weighted search for bigger boards (f = g +
 * h·√h up to 25 cells, g + h·h above; the whole board up to 6×6, line by line beyond, see staged-search.ts).
 * Flags: `--weight w` (f = g + w·h everywhere), `--no-pdb`. Logs only to stderr.
 */
import type { PuzzleState } from '../../src/core/types.ts';
import { runBot, sideWithin, warmUpBySolving, wireWarmUpWithin } from '../../src/sdk/index.ts';
import type { SolveAnswer, SolveContext } from '../../src/sdk/index.ts';
import { parseFlags } from './flags.ts';
import { defaultCacheDir } from '../../src/solvers/sliding/pdb-cache.ts';
import { PdbLoader } from '../shared/pdb-loader.ts';
import { PARTITION_4X4, PARTITION_4X4_78 } from '../../src/solvers/sliding/pdb-set.ts';
import { MAX_CELLS, solveSliding } from './solve.ts';

const log = (line: string): void => void process.stderr.write(`ida-star: ${line}\n`);
const flags = parseFlags(process.argv.slice(2));
if (typeof flags === 'string') {
  log(flags);
  process.exit(2);
}
// The 7-8 tables when `prepare-78` built them (577 MB, minutes to build), else the 6-6-3 ones of the install.
const loader = flags.noPdb ? null : new PdbLoader(defaultCacheDir(), log, 4, 4, PARTITION_4X4, true, PARTITION_4X4_78);

const weight = flags.weight;
const solve = (puzzle: PuzzleState, ctx: SolveContext): Promise<SolveAnswer> | SolveAnswer => {
  if (puzzle.kind !== 'sliding') return { unsupported: `ida-star solves sliding puzzles only, not ${puzzle.kind}` };
  return solveSliding(puzzle, ctx, { weight, pdbs: () => loader?.get() ?? null });
};
// A short walk from the goal: the search's code paths for the JIT, without a long search.
const warmSearch = warmUpBySolving(solve, { walk: 30, maxSize: 4 });

void runBot({
  name: 'ida-star',
  version: '1.0.0',
  capabilities: [{ kind: 'sliding', maxSize: sideWithin(MAX_CELLS) }],
  solve,
  // The SDK's wire warm-up (about 0.2 s) before 3×3 and smaller, whose solves take microseconds; a 4×4 solve
  // takes milliseconds, and Korf's 100 through the arena would spend longer warming up than it saves.
  wireWarmUp: wireWarmUpWithin(3),
  // The untimed warm-up: load (or, the first time on a machine, build) the 4x4 tables before timed solves,
  // waiting no longer than the referee allows (the build goes on on its thread; solves fall back meanwhile),
  // then one throwaway search so the JIT has compiled it.
  async prepare(request) {
    if (request.puzzleClass === 'sliding 4x4') await loader?.ready(request.timeLimitMs * 0.8);
    await warmSearch(request);
  },
});
