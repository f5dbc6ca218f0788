import { describe, expect, it } from 'vitest';
import type { PuzzleState } from '../../src/core/types.ts';
import { RestartLoops } from '../../src/referee/restart-loops.ts';
import { runNewMatch } from '../../src/referee/run-match.ts';
import { createMemoryStore } from '../../src/store/memory/memory-store.ts';
import { slidingBoard } from '../helpers/boards.ts';
import { FakeClock } from '../helpers/fake-clock.ts';
import { replyWith, ScriptedLauncher, silent } from '../helpers/scripted-link.ts';

describe('RestartLoops', () => {
  it('reports each bot once with its longest run of 3+ time-outs or crashes', () => {
    const loops = new RestartLoops();
    const feed = (bot: string, verdicts: string) =>
      [...verdicts].forEach((v, i) => loops.record(bot, i, v === 't' ? 'timeout' : v === 'c' ? 'crash' : 'solved'));
    feed('a', 'ttsttttscc'); // runs of 2, 4, 2: the 4 is reported
    feed('b', 'ttstts'); // never 3 in a row
    feed('c', 'tcts'); // mixed verdicts count together
    expect(loops.report()).toEqual([
      { bot: 'a', scrambles: 4, first: 3, last: 6, verdicts: ['timeout'] },
      { bot: 'c', scrambles: 3, first: 0, last: 2, verdicts: ['crash', 'timeout'] },
    ]);
  });

  it('a match says it once for a bot that times out on every scramble', async () => {
    const clock = new FakeClock();
    const boards = ['LU', 'LLUR', 'ULDR', 'LLUURD'].map((p) => slidingBoard(3, 3, p));
    const states: PuzzleState[] = boards.map((b) => b.state);
    const solve = (s: PuzzleState) => boards.find((b) => JSON.stringify(b.state) === JSON.stringify(s))!.solution;
    const plans = { good: () => replyWith(solve, { delayMs: 5 }), stuck: () => silent };
    const run = await clock.run(
      runNewMatch({ bots: ['good', 'stuck'], count: states.length, seed: 'u', timeLimitMs: 100, maxMoves: 100, concurrency: 1 }, states, {
        store: createMemoryStore(),
        clock,
        makeLauncher: (bot) => new ScriptedLauncher(bot, plans[bot as keyof typeof plans], { clock }),
      }),
    );
    expect(run.restartLoops).toEqual([{ bot: 'stuck', scrambles: 4, first: 0, last: 3, verdicts: ['timeout'] }]);
  });
});
