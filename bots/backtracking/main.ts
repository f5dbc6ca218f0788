/**
 * Bot "backtracking" (seed 003): optimal answers for sliding boards of at most 9 cells by depth-first search
 * with an admissible bound. Flags: --strategy ida|dfbnb, --seed-pruning (seed's non-admissible cut),
 * --trace (every visited node to stderr, like the seed's printCurrent), --in FILE [--out FILE] (standalone).
 */
import { parseArgs } from 'node:util';
import { runBot, sideWithin, warmUpBySolving } from '../../src/sdk/index.ts';
import type { BotDefinition } from '../../src/sdk/index.ts';
import { MAX_CELLS, solveBacktracking } from './solve.ts';
import type { BacktrackingOptions } from './solve.ts';
import { runStandalone } from './standalone.ts';

const { values } = parseArgs({
  options: {
    strategy: { type: 'string', default: 'ida' },
    'seed-pruning': { type: 'boolean', default: false },
    trace: { type: 'boolean', default: false },
    in: { type: 'string' },
    out: { type: 'string' },
  },
});
if (values.strategy !== 'ida' && values.strategy !== 'dfbnb') {
  process.stderr.write(`backtracking: --strategy must be ida or dfbnb, got ${values.strategy}\n`);
  process.exit(1);
}
const opts: BacktrackingOptions = {
  strategy: values.strategy,
  seedPruning: values['seed-pruning'],
  trace: values.trace ? (text) => void process.stderr.write(text) : undefined,
};

if (values.in !== undefined) {
  const err = (line: string): void => void process.stderr.write(`${line}\n`);
  process.exitCode = runStandalone(values.in, values.out, opts, err, (text) => process.stdout.write(text));
} else {
  const solve: BotDefinition['solve'] = (puzzle, ctx) => solveBacktracking(puzzle, ctx, opts);
  void runBot({
    name: 'backtracking',
    version: '1.0.0',
    capabilities: [{ kind: 'sliding', maxSize: sideWithin(MAX_CELLS) }],
    solve,
    // The JIT's first pass over the search, in the untimed warm-up rather than the first timed solve (a short
    // walk keeps the warm-up short; --trace stays quiet for it).
    ...(opts.trace ? {} : { prepare: warmUpBySolving(solve, { walk: 12 }) }),
  });
}
