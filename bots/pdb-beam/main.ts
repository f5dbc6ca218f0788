/**
 * pdb-beam: near-optimal answers for sliding boards of up to 25 cells, made for 5×5. An anytime beam search over
 * whole states (widths doubling until the time is up, each run pruned by the best answer so far) ranked by
 * the additive 6-6-6-6 pattern databases of the 24-puzzle with the reflection, 255 MB built once into
 * .cache/pdb/ (a few minutes of CPU; `arena prepare pdb-beam` builds them ahead, as bots/pdb-beam/assets.json
 * declares; unconfined, the bot starts building them on a thread at its first 5×5 and uses Manhattan + linear
 * conflict meanwhile; confined, the store is read-only and it plays on Manhattan + linear conflict).
 * 4×4 uses ida-star's 6-6-3 tables when present. `--no-build`: never build tables, use only what the cache
 * holds (a build takes a core for minutes, which would slow the opponent of a match too). Logs only to stderr.
 */
import type { PuzzleState } from '../../src/core/types.ts';
import { runBot, sideWithin, wireWarmUpWithin } from '../../src/sdk/index.ts';
import { defaultCacheDir } from '../../src/solvers/sliding/pdb-cache.ts';
import { partitionFor } from '../../src/solvers/sliding/pdb-set.ts';
import { PdbLoader } from '../shared/pdb-loader.ts';
import { MAX_CELLS, solvePdbBeam } from './solve.ts';

const log = (line: string): void => void process.stderr.write(`pdb-beam: ${line}\n`);
const flags = process.argv.slice(2);
if (flags.some((f) => f !== '--no-build')) {
  log(`unknown flag in ${flags.join(' ')} (expected --no-build)`);
  process.exit(2);
}
const build = !flags.includes('--no-build');
const loaders = new Map<string, PdbLoader>();
/** The loader of a shape that has a partition (4×4, 5×5), made on first use. */
function loader(rows: number, cols: number): PdbLoader | null {
  const partition = partitionFor(rows, cols);
  if (!partition) return null;
  const key = `${rows}x${cols}`;
  let l = loaders.get(key);
  if (!l) loaders.set(key, (l = new PdbLoader(defaultCacheDir(), log, rows, cols, partition, build)));
  return l;
}

void runBot({
  name: 'pdb-beam',
  version: '1.0.0',
  capabilities: [{ kind: 'sliding', maxSize: sideWithin(MAX_CELLS) }],
  solve(puzzle: PuzzleState, ctx) {
    if (puzzle.kind !== 'sliding') return { unsupported: `pdb-beam solves sliding puzzles only, not ${puzzle.kind}` };
    return solvePdbBeam(puzzle, ctx, (rows, cols) => loader(rows, cols)?.get() ?? null);
  },
  // The SDK's wire warm-up only before 3×3 and smaller: on the boards it is made for, a solve takes seconds.
  wireWarmUp: wireWarmUpWithin(3),
  // The untimed warm-up: load the shape's tables, or start their build and wait for it while the referee's
  // limit allows (a 5×5 build takes minutes: the first solves then use the fallback until it is done).
  async prepare({ puzzleClass, timeLimitMs }) {
    const m = /^sliding (\d+)x(\d+)$/.exec(puzzleClass);
    if (m) await loader(Number(m[1]), Number(m[2]))?.ready(timeLimitMs * 0.8);
  },
});
