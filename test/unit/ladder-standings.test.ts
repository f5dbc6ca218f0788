/**
 * The ladder's standings kept game by game equal a fit of every result from scratch: after new games,
 * while a game is still being played, after a purge, and once nothing changed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openContext, type AppContext } from '../../src/app/context.ts';
import { boardsOf } from '../helpers/ladder-oracle.ts';
import { ladderStandings } from '../../src/app/ladder/ladder-standings.ts';
import { ratedResults } from '../../src/app/records/rated-results.ts';
import { game, version } from '../helpers/ladder-data.ts';

async function fromScratch(ctx: AppContext) {
  return boardsOf((await ratedResults(ctx)).columns, await ctx.store.ladder().listGames());
}

function expectSame(a: Awaited<ReturnType<typeof fromScratch>>, b: Awaited<ReturnType<typeof fromScratch>>): void {
  expect([...a.keys()]).toEqual([...b.keys()]);
  for (const [cls, board] of a) {
    expect([...board.keys()].sort()).toEqual([...b.get(cls)!.keys()].sort());
    for (const [id, r] of board) {
      const o = b.get(cls)!.get(id)!;
      expect([r.rating, r.low, r.high]).toEqual([expect.closeTo(o.rating, 9), expect.closeTo(o.low, 9), expect.closeTo(o.high, 9)]);
      expect([r.games, r.results, r.solveRate]).toEqual([o.games, o.results, o.solveRate]);
    }
  }
}

describe('ladder standings', () => {
  const dir = mkdtempSync(join(tmpdir(), 'arena-standings-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('ladderStandings - game by game equals a fit from scratch, through running games and a purge', async () => {
    const opened = await openContext({ db: join(dir, 's.db') });
    if (!opened.ok) throw new Error(opened.reason);
    const ctx = opened.value;
    try {
      const s = ctx.store;
      const [a, b, c] = [await version(s, 'a', 'h', 'placed'), await version(s, 'b', 'h', 'placed'), await version(s, 'c', 'h', 'placing')];
      for (let i = 0; i < 30; i++) await game(s, [a, b, c][i % 3]!, [b, c, a][i % 3]!, 4, i % 5);
      expectSame((await ladderStandings(ctx)).boards, await fromScratch(ctx));
      const running = await game(s, c, a, 6, 5);
      await s.setMatchStatus(running, 'running');
      expectSame((await ladderStandings(ctx)).boards, await fromScratch(ctx));
      // Once finished, the game is summed for good.
      await s.setMatchStatus(running, 'finished');
      await game(s, a, b, 4, 4);
      expectSame((await ladderStandings(ctx)).boards, await fromScratch(ctx));
      const same = await ladderStandings(ctx);
      expect(await ladderStandings(ctx)).toBe(same);
      expect(await s.removeResults('c')).toBeGreaterThan(0);
      expectSame((await ladderStandings(ctx)).boards, await fromScratch(ctx));
      expect((await ladderStandings(ctx)).games).toHaveLength(32);
    } finally {
      await ctx.close();
    }
  });
});
