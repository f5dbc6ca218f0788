/**
 * The web's match list keeps finished matches' lines: the same list as listMatches at every step, new
 * results of a running match shown at once, and a purge (which deletes results of finished matches) shown
 * at the next request.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openContext } from '../../src/app/context.ts';
import { cachedListMatches } from '../../src/app/records/match-list-cache.ts';
import { listMatches } from '../../src/app/records/records.ts';
import { game, version } from '../helpers/ladder-data.ts';

describe('match list cache', () => {
  const dir = mkdtempSync(join(tmpdir(), 'arena-list-cache-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('cachedListMatches - the same list as listMatches after results, a new match and a purge', async () => {
    const opened = await openContext({ db: join(dir, 'list.db') });
    if (!opened.ok) throw new Error(opened.reason);
    const ctx = opened.value;
    try {
      const a = await version(ctx.store, 'a', 'h', 'placed');
      const b = await version(ctx.store, 'b', 'h', 'placed');
      const c = await version(ctx.store, 'c', 'h', 'placed');
      await game(ctx.store, a, b, 6, 4);
      const same = async () => expect(await cachedListMatches(ctx, { limit: 50 })).toEqual(await listMatches(ctx, { limit: 50 }));
      await same();
      await same();
      await game(ctx.store, a, c, 4, 1);
      await same();
      const running = await ctx.store.createMatch({ config: {}, seed: 'r', generatorVersion: 'g', bots: ['a', 'b'], scrambles: [{ index: 0, state: { kind: 'sliding', rows: 2, cols: 2, tiles: [1, 2, 3, 0] }, puzzleClass: 'sliding 2x2', bound: { lowerBound: 0 } }] });
      await same();
      const [s] = await ctx.store.listScrambles(running.id);
      await ctx.store.recordResult({ scrambleId: s!.id, bot: 'a', verdict: 'solved', moveCount: 0, moves: '', wallMs: 1 });
      await same();
      expect(await ctx.store.removeResults('c')).toBe(4);
      await same();
      expect((await cachedListMatches(ctx, { bot: 'c' }))[0]!.plays).toBe(4);
    } finally {
      await ctx.close();
    }
  });
});
