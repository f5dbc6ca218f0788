import { beforeEach, expect, it } from 'vitest';
import type { AppContext } from '../../src/app/context.ts';
import { ratedResults } from '../../src/app/records/rated-results.ts';
import type { PuzzleState } from '../../src/core/types.ts';
import type { Store } from '../../src/store/types.ts';
import { describeEachStore, longAnswers, pieces, scrambleInputs } from '../helpers/store-contract.ts';

// The Store contract, continued (store-contract.test.ts has the rest): long answers read back in blocks,
// the change marker the leaderboard's cache trusts, and values the store must not alias.

describeEachStore('Store contract, reads', (b) => {
  let store: Store;
  beforeEach(() => {
    store = b.store;
  });
  const { newMatch, matchWithScrambles } = b;

  it('readMoves - streams a long answer in blocks of at most 1 MiB that join to the answer, from any piece on', async () => {
    const { scrambles } = await matchWithScrambles();
    const { text, pairs } = longAnswers();
    await store.recordResult({ scrambleId: scrambles[1].id, bot: 'a', verdict: 'solved', moveCount: text.bytes / 2, moves: text, wallMs: 1 });
    await store.recordResult({ scrambleId: scrambles[2].id, bot: 'a', verdict: 'solved', moveCount: 2_200_000, moves: pairs, wallMs: 1 });
    await store.recordResult({ scrambleId: scrambles[0].id, bot: 'a', verdict: 'solved', moveCount: 2, moves: 'UD', wallMs: 1 });
    const t = await pieces(store, scrambles[1].id, 'a');
    // The form's empty moves first, then one piece per block.
    expect(t[0]).toBe('');
    expect(t.length).toBe(text.blocks.length + 1);
    expect(Math.max(...t.map((p) => p.length))).toBeLessThanOrEqual(1 << 20);
    const joined = t.join('');
    expect(joined.length).toBe(text.bytes);
    expect(joined).toBe((await store.getResult(scrambles[1].id, 'a'))!.moves);
    expect((await pieces(store, scrambles[1].id, 'a', 3)).join('')).toBe(t.slice(3).join(''));
    const p = await pieces(store, scrambles[2].id, 'a');
    expect(p[0]).toEqual([]);
    expect(Math.max(...p.map((x) => x.length))).toBeLessThanOrEqual(1 << 18);
    const flat = (p as Array<ReadonlyArray<readonly [number, number]>>).flat();
    expect(flat.length).toBe(2_200_000);
    expect(JSON.stringify(flat)).toBe(JSON.stringify((await store.getResult(scrambles[2].id, 'a'))!.moves));
    expect(flat[1_234_567]).toEqual([(12 + 34_567) % 60_000, 70_000 + 34_567]);
    // A short answer is one piece; past its last piece, or for an unknown result, nothing.
    expect(await pieces(store, scrambles[0].id, 'a')).toEqual(['UD']);
    expect(await pieces(store, scrambles[0].id, 'a', 1)).toEqual([]);
    expect(await pieces(store, scrambles[1].id, 'a', t.length)).toEqual([]);
    expect(await pieces(store, scrambles[0].id, 'nobody')).toEqual([]);
    // A long answer's blocks go with its result.
    expect(await store.removeResults('a')).toBe(3);
    expect(await pieces(store, scrambles[1].id, 'a')).toEqual([]);
  });

  it('changeMarker - moves with every committed write the leaderboard reads, stays while nothing is written', async () => {
    const marks: string[] = [];
    const mark = async () => {
      const m = await store.changeMarker();
      expect(m).toBeDefined();
      expect(await store.changeMarker()).toBe(m);
      marks.push(m!);
    };
    await mark();
    const { m, scrambles } = await matchWithScrambles();
    await mark();
    await store.recordResult({ scrambleId: scrambles[0].id, bot: 'a', verdict: 'solved', moveCount: 2, moves: 'UD', wallMs: 1 });
    await mark();
    await store.setScrambleBound(scrambles[0].id, { optimal: 2, lowerBound: 2 });
    await mark();
    await store.addScrambles(m.id, [{ ...scrambleInputs()[0], index: 7 }]);
    await mark();
    await store.removeResults('a');
    await mark();
    expect(new Set(marks).size).toBe(marks.length);
  });

  it('changeMarker - the cached leaderboard is served until a result is recorded, then refitted', async () => {
    const ctx = { store } as AppContext;
    const { scrambles } = await matchWithScrambles();
    const play = (bot: string, moveCount: number) =>
      store.recordResult({ scrambleId: scrambles[0].id, bot, verdict: 'solved', moveCount, moves: 'U'.repeat(moveCount), wallMs: 1 });
    await play('a', 31);
    const first = await ratedResults(ctx);
    expect(await ratedResults(ctx)).toBe(first);
    expect(first.columns.length).toBe(1);
    await play('b', 33);
    const second = await ratedResults(ctx);
    expect(second).not.toBe(first);
    expect(second.columns.length).toBe(2);
    expect(second.boards()[0].entries.map((e) => e.bot)).toEqual(['a', 'b']);
  });

  it('is not affected by later mutation of the values handed to it', async () => {
    const tiles = [2, 1, 3, 4];
    const state: PuzzleState = { kind: 'swaps', rows: 2, cols: 2, tiles };
    const m = await newMatch([{ index: 0, state, puzzleClass: 'swaps 2x2', bound: { lowerBound: 1 } }]);
    const [s] = await store.listScrambles(m.id);
    const pairs: Array<[number, number]> = [[1, 2]];
    await store.recordResult({ scrambleId: s.id, bot: 'a', verdict: 'solved', moveCount: 1, moves: pairs, wallMs: 1 });
    tiles[0] = 99;
    pairs[0][0] = 99;
    expect((await store.listScrambles(m.id))[0].state).toEqual({ kind: 'swaps', rows: 2, cols: 2, tiles: [2, 1, 3, 4] });
    expect((await store.listResults(m.id))[0].moves).toEqual([[1, 2]]);
  });
});
