/**
 * The leaderboard kept up to date a result at a time (src/app/records/rated-results.ts, src/app/records/live-columns.ts,
 * src/stats/board-tallies.ts) must equal a full recomputation exactly, after every step of a seeded random
 * stream: results for new scrambles and for scrambles other bots played earlier, a bot that sorts before the
 * others arriving late, a purge, a raised bound and a write that adds no result.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRng, type Rng } from '../../src/core/rng.ts';
import type { PuzzleState } from '../../src/core/types.ts';
import { VERDICTS, type Verdict } from '../../src/core/verdict.ts';
import { columnsOf, type ColumnSource } from '../../src/core/summary-columns.ts';
import { leaderboardOfColumns } from '../../src/stats/leaderboard.ts';
import { BoardTallies } from '../../src/stats/board-tallies.ts';
import { LiveColumns } from '../../src/app/records/live-columns.ts';
import { ratedResults } from '../../src/app/records/rated-results.ts';
import { ratingHistoryOfColumns } from '../../src/stats/rating-history.ts';
import type { AppContext } from '../../src/app/context.ts';
import type { NewScramble, ScrambleRecord, Store } from '../../src/store/types.ts';
import { storeImpls } from '../helpers/store-impls.ts';

const sliding: PuzzleState = { kind: 'sliding', rows: 3, cols: 3, tiles: [8, 6, 7, 2, 5, 4, 3, 0, 1] };
const swaps: PuzzleState = { kind: 'swaps', rows: 2, cols: 2, tiles: [4, 3, 2, 1] };

/** Mostly solves of few moves and close times (so moves, times and margins all decide some games), some failures and declines. */
function randomOutcome(rng: Rng): { verdict: Verdict; moveCount: number; wallMs: number } {
  const r = rng.int(10);
  const verdict: Verdict = r < 6 ? 'solved' : r < 7 ? 'unsupported' : VERDICTS[1 + rng.int(4)];
  return { verdict, moveCount: 2 + rng.int(4), wallMs: 1 + rng.int(40) + rng.int(1000) / 1000 };
}

describe('LiveColumns and BoardTallies', () => {
  it('BoardTallies - boards and histories after random batches equal a full recomputation on every row so far', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const rng = createRng(seed);
      const bots = ['m', 'q', 'c', 'x', 'a', 'k'];
      const all: ColumnSource[] = [];
      let live: LiveColumns | undefined;
      const tallies = new BoardTallies();
      const played = new Set<string>();
      let scrambles = 0;
      for (let step = 0; step < 12; step++) {
        const batch: ColumnSource[] = [];
        scrambles += rng.int(12);
        const botsNow = bots.slice(0, 2 + Math.min(4, step >> 1));
        for (let i = 0, n = 1 + rng.int(12); i < n && scrambles > 0; i++) {
          const sid = 1 + rng.int(scrambles);
          const bot = botsNow[rng.int(botsNow.length)];
          if (played.has(`${sid}/${bot}`)) continue;
          played.add(`${sid}/${bot}`);
          const o = randomOutcome(rng);
          batch.push({ scrambleId: sid, matchId: 1 + (sid >> 1), bot, puzzleClass: sid % 3 === 0 ? 'swaps 2x2' : 'sliding 3x3', ...o, bound: { lowerBound: 2, ...(sid % 2 ? { optimal: 2 } : {}) } });
        }
        all.push(...batch);
        if (!live) {
          live = new LiveColumns(columnsOf(batch));
          tallies.add(live.view(), Int32Array.from({ length: live.length }, (_, i) => i));
        } else {
          const placed = live.add(columnsOf(batch));
          tallies.add(live.view(), placed);
        }
        const full = columnsOf(all);
        expect(tallies.boards(live.view())).toEqual(leaderboardOfColumns(full));
        for (const cls of ['sliding 3x3', 'swaps 2x2', 'hanoi 3']) expect(tallies.history(live.view(), cls)).toEqual(ratingHistoryOfColumns(full, cls));
      }
    }
  });
});

const impls = storeImpls();

for (const impl of impls) {
  describe(`incremental leaderboard: ${impl.name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await impl.open();
    });
    afterEach(async () => {
      await store.close();
      await impl.cleanup();
    });
    afterAll(async () => {
      await impl.done?.();
    });

    it('ratedResults - after appends, a purge and a raised bound, equals a full recomputation at every step', async () => {
      const ctx = { store } as AppContext;
      const since = vi.spyOn(store, 'summaryColumnsSince');
      const rng = createRng(24);
      const scrambles: ScrambleRecord[] = [];
      const played = new Set<string>();
      let bots = ['m', 'q', 'c'];
      let matches = 0;
      const newMatch = async () => {
        const inputs: NewScramble[] = Array.from({ length: 4 }, (_, index) => ({
          index,
          state: index % 2 ? swaps : sliding,
          puzzleClass: index % 2 ? 'swaps 2x2' : 'sliding 3x3',
          bound: { lowerBound: 2 },
        }));
        const m = await store.createMatch({ config: { n: 4 }, seed: `s${++matches}`, generatorVersion: 'g1', bots, scrambles: inputs });
        scrambles.push(...(await store.listScrambles(m.id)));
        return m;
      };
      const play = async (n: number) => {
        for (let i = 0; i < n; i++) {
          const s = scrambles[rng.int(scrambles.length)];
          const bot = bots[rng.int(bots.length)];
          if (played.has(`${s.id}/${bot}`)) continue;
          played.add(`${s.id}/${bot}`);
          const o = randomOutcome(rng);
          await store.recordResult({ scrambleId: s.id, bot, ...o, moves: 'U'.repeat(o.moveCount) });
        }
      };
      const check = async () => {
        const rated = await ratedResults(ctx);
        const full = await store.summaryColumns();
        expect(rated.columns.length).toBe(full.length);
        expect(rated.boards()).toEqual(leaderboardOfColumns(full));
        for (const cls of full.classes) expect(rated.history(cls)).toEqual(ratingHistoryOfColumns(full, cls));
      };
      const lastRead = () => since.mock.calls.at(-1)![0];
      await newMatch();
      await play(10);
      await check();
      for (let step = 0; step < 10; step++) {
        if (step % 3 === 0) await newMatch();
        if (step === 2) bots = ['a', ...bots, 'k']; // 'a' sorts first: every rank moves
        await play(3 + rng.int(10));
        await check();
        expect(lastRead()).toBeGreaterThan(0); // appended, not read again
        if (step === 4) {
          await store.removeResults('q');
          await check();
          expect(lastRead()).toBe(0);
        }
        if (step === 6) {
          await store.setScrambleBound(scrambles[0].id, { optimal: 3, lowerBound: 3 });
          await check();
          expect(lastRead()).toBe(0);
        }
        if (step === 8) {
          await store.setMatchStatus(1, 'finished');
          const before = since.mock.calls.length;
          await check();
          // A write that adds no result (the memory store's marker does not even move for it): nothing read again.
          expect(since.mock.calls.slice(before).every(([afterId]) => afterId > 0)).toBe(true);
        }
      }
    });
  });
}
