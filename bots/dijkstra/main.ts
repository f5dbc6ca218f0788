/**
 * Bot "dijkstra" (seed 001): optimal sliding-puzzle answers from Dijkstra over the whole state graph of
 * boards of at most 10 cells. Uses the untimed warm-up (`prepare`) to build a shape's graph before the first
 * timed solve. Flags: --preload RxC[,RxC...] builds those graphs before connecting; --no-warm-up does not ask
 * for the warm-up.
 */
import { parseArgs } from 'node:util';
import { runBot } from '../../src/sdk/index.ts';
import { MAX_CELLS } from './state-graph.ts';
import { createDijkstraSolver } from './solve.ts';

const { values } = parseArgs({ options: { preload: { type: 'string' }, 'no-warm-up': { type: 'boolean' } } });
const solver = createDijkstraSolver((line) => process.stderr.write(`${line}\n`));
for (const shape of values.preload?.split(',') ?? []) {
  const m = /^(\d+)x(\d+)$/.exec(shape.trim());
  const cells = m ? Number(m[1]) * Number(m[2]) : 0;
  if (m && cells >= 2 && cells <= MAX_CELLS) solver.graph(Number(m[1]), Number(m[2]));
  else process.stderr.write(`dijkstra: ignoring --preload ${shape} (want RxC with 2..${MAX_CELLS} cells)\n`);
}
void runBot({
  name: 'dijkstra',
  version: '1.0.0',
  // The side of its largest board, 2x5 (10 cells); an oblong or square board over 10 cells it declines itself.
  capabilities: [{ kind: 'sliding', maxSize: 5 }],
  solve: (puzzle) => solver.solve(puzzle),
  // --no-warm-up leaves the graph build in the first timed solve (the benchmark measures the difference).
  ...(values['no-warm-up'] ? {} : { prepare: ({ puzzleClass }: { puzzleClass: string }) => solver.prepare(puzzleClass) }),
});
