/**
 * The ladder's tables on every Store: versions numbered per bot and made current, statuses and notes,
 * ladder games planned before their match and tied to it, found again by seed, newest first with pages.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/types.ts';
import { storeImpls } from '../helpers/store-impls.ts';

for (const impl of storeImpls()) {
  describe(`ladder store - ${impl.name}`, () => {
    let store: Store;
    afterEach(async () => {
      await store?.close();
      await impl.cleanup();
    });
    afterAll(async () => impl.done?.());

    it('saveVersion - numbers versions per bot, returns the same one for the same hash, and moves current', async () => {
      store = await impl.open();
      const l = store.ladder();
      const a1 = await l.saveVersion({ bot: 'a', hash: 'h1', command: 'run a', folder: '/tmp/a' });
      const b1 = await l.saveVersion({ bot: 'b', hash: 'h1', command: 'run b' });
      const a2 = await l.saveVersion({ bot: 'a', hash: 'h2', command: 'run a' });
      expect([a1.number, b1.number, a2.number]).toEqual([1, 1, 2]);
      expect(a1).toMatchObject({ status: 'new', classes: [], current: true, folder: '/tmp/a' });
      expect(b1.folder).toBeUndefined();
      expect((await l.listVersions('a')).map((v) => [v.number, v.current])).toEqual([[1, false], [2, true]]);
      const again = await l.saveVersion({ bot: 'a', hash: 'h1', command: 'run a' });
      expect(again.id).toBe(a1.id);
      expect((await l.listVersions('a')).map((v) => v.current)).toEqual([true, false]);
      expect((await l.listVersions()).map((v) => v.bot)).toEqual(['a', 'b', 'a']);
    });

    it('updateVersion - sets status, note and classes; a null note clears it; an unknown id rejects', async () => {
      store = await impl.open();
      const l = store.ladder();
      const v = await l.saveVersion({ bot: 'a', hash: 'h', command: 'x' });
      await l.updateVersion(v.id, { status: 'failed', note: 'handshake: no hello', classes: ['sliding 3x3'] });
      expect((await l.listVersions('a'))[0]).toMatchObject({ status: 'failed', note: 'handshake: no hello', classes: ['sliding 3x3'] });
      await l.updateVersion(v.id, { status: 'placing', note: null });
      const after = (await l.listVersions('a'))[0]!;
      expect(after.status).toBe('placing');
      expect(after.note).toBeUndefined();
      await expect(l.updateVersion(999, { status: 'placed' })).rejects.toThrow();
    });

    it('games - planned, tied to their match, found by seed, listed newest first in pages', async () => {
      store = await impl.open();
      const l = store.ladder();
      const v = await l.saveVersion({ bot: 'a', hash: 'h', command: 'x' });
      const entries = [{ bot: 'a', versionId: v.id }, { bot: 'b', versionId: v.id }];
      const g1 = await l.addGame({ seed: 'ladder-1', puzzleClass: 'sliding 3x3', purpose: 'placement', subject: v.id, entries, why: 'placing a' });
      const g2 = await l.addGame({ seed: 'ladder-2', puzzleClass: 'sliding 3x3', purpose: 'upkeep', entries, why: 'overlap' });
      expect(g1.matchId).toBeUndefined();
      expect(await l.matchIdBySeed('ladder-1')).toBeUndefined();
      const m = await store.createMatch({ config: {}, seed: 'ladder-1', generatorVersion: 'g', bots: ['a', 'b'], scrambles: [{ index: 0, state: { kind: 'sliding', rows: 2, cols: 2, tiles: [1, 2, 3, 0] }, puzzleClass: 'sliding 2x2', bound: { lowerBound: 0, optimal: 0 } }] });
      expect(await l.matchIdBySeed('ladder-1')).toBe(m.id);
      await l.setGameMatch(g1.id, m.id);
      const all = await l.listGames();
      expect(all.map((g) => g.id)).toEqual([g2.id, g1.id]);
      expect(all[1]).toMatchObject({ matchId: m.id, subject: v.id, entries, why: 'placing a', purpose: 'placement' });
      expect(all[0]!.subject).toBeUndefined();
      expect((await l.listGames({ limit: 1 })).map((g) => g.id)).toEqual([g2.id]);
      expect((await l.listGames({ before: g2.id })).map((g) => g.id)).toEqual([g1.id]);
      await expect(l.addGame({ seed: 'ladder-1', puzzleClass: 'x', purpose: 'upkeep', entries, why: '' })).rejects.toThrow();
    });

    it('state - keeps one value per key', async () => {
      store = await impl.open();
      const l = store.ladder();
      expect(await l.getState('seed')).toBeUndefined();
      await l.setState('seed', '1');
      await l.setState('seed', '2');
      expect(await l.getState('seed')).toBe('2');
    });
  });
}

for (const impl of storeImpls()) {
  describe(`change marker - ${impl.name}`, () => {
    let store: Store;
    afterEach(async () => {
      await store?.close();
      await impl.cleanup();
    });
    afterAll(async () => impl.done?.());

    it('changeMarker - moves when a match, a result or a ladder game is written', async () => {
      store = await impl.open();
      const m0 = await store.changeMarker();
      if (m0 === undefined) return; // the memory store does not tell
      const m = await store.createMatch({ config: {}, seed: 's', generatorVersion: 'g', bots: ['a'], scrambles: [{ index: 0, state: { kind: 'sliding', rows: 2, cols: 2, tiles: [1, 2, 3, 0] }, puzzleClass: 'sliding 2x2', bound: { lowerBound: 0, optimal: 0 } }] });
      const m1 = await store.changeMarker();
      expect(m1).not.toBe(m0);
      expect(await store.changeMarker()).toBe(m1);
      const [s] = await store.listScrambles(m.id);
      await store.recordResult({ scrambleId: s!.id, bot: 'a', verdict: 'solved', moveCount: 0, moves: '', wallMs: 1 });
      const m2 = await store.changeMarker();
      expect(m2).not.toBe(m1);
      const v = await store.ladder().saveVersion({ bot: 'a', hash: 'h', command: 'a' });
      await store.ladder().addGame({ seed: 'g1', puzzleClass: 'sliding 2x2', purpose: 'upkeep', entries: [{ bot: 'a', versionId: v.id }], why: '' });
      expect(await store.changeMarker()).not.toBe(m2);
      // A purge is counted, so what was kept of finished games is read again.
      const before = (await store.ladder().getState('results-deleted')) ?? '0';
      expect(await store.removeResults('a')).toBe(1);
      expect(await store.ladder().getState('results-deleted')).not.toBe(before);
    });
  });
}
