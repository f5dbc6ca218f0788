/**
 * Child of bench/long-answers.ts: records one optimal 24-disc Hanoi answer (16,777,215 moves) in the store
 * at argv[2] (a SQLite file or a postgres:// URL) the way the referee does, through the Store API: the
 * answer streams from the hanoi-recursive bot's solver in its chunks into the referee's MoveRecorder blocks,
 * then one recordResult. Prints `{ match, scrambleId, moves, bytes }` as its last line.
 */
import { solveHanoiRecursive } from '../bots/hanoi-recursive/solve.ts';
import type { HanoiState, WireMoves } from '../src/core/types.ts';
import { MoveRecorder } from '../src/puzzles/move-pieces.ts';
import { openStoreAt } from '../src/store/open.ts';

const location = process.argv[2];
const discs = 24;
const start: HanoiState = { kind: 'hanoi', pegs: 3, start: 'A'.repeat(discs), goal: 'C'.repeat(discs) };
const store = await openStoreAt(location);
try {
  const m = await store.createMatch({
    config: { bench: 'long answers' },
    seed: 'bench',
    generatorVersion: 'bench',
    bots: ['hanoi-recursive'],
    scrambles: [{ index: 0, state: start, puzzleClass: `hanoi ${discs}`, bound: { optimal: 2 ** discs - 1, lowerBound: 2 ** discs - 1 } }],
  });
  const [s] = await store.listScrambles(m.id);
  const recorder = new MoveRecorder('text');
  const answer = solveHanoiRecursive(start);
  if (!('moves' in answer)) throw new Error(`hanoi-recursive gave no answer: ${JSON.stringify(answer)}`);
  const chunks = answer.moves;
  for (const chunk of typeof chunks === 'string' ? [chunks] : (chunks as Iterable<WireMoves>)) recorder.push(chunk);
  const moves = recorder.result();
  await store.recordResult({ scrambleId: s.id, bot: 'hanoi-recursive', verdict: 'solved', moveCount: 2 ** discs - 1, moves, wallMs: 1 });
  process.stdout.write(`${JSON.stringify({ match: m.id, scrambleId: s.id, moves: 2 ** discs - 1, bytes: moves.bytes })}\n`);
} finally {
  await store.close();
}
