import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PuzzleState } from '../../src/core/types.ts';
import { createMemoryStore } from '../../src/store/memory-store.ts';
import { openSqliteStore } from '../../src/store/sqlite-store.ts';
import type { ResultRecord, ScrambleRecord, Store } from '../../src/store/types.ts';

/** One implementation under test: a fresh store per test, cleaned up afterwards. */
interface Impl {
  readonly name: string;
  open(): Store;
  cleanup(): void;
}

function sqliteImpl(): Impl {
  let dir = '';
  return {
    name: 'sqlite store (file)',
    open() {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-store-'));
      return openSqliteStore(path.join(dir, 'test.db'));
    },
    cleanup() {
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

const memoryImpl: Impl = { name: 'memory store', open: createMemoryStore, cleanup() {} };

const sliding: PuzzleState = { kind: 'sliding', rows: 3, cols: 3, tiles: [8, 6, 7, 2, 5, 4, 3, 0, 1] };
const hanoi: PuzzleState = { kind: 'hanoi', pegs: 3, start: 'BCCA', goal: 'CCCC' };
const swaps: PuzzleState = { kind: 'swaps', rows: 2, cols: 2, tiles: [4, 3, 2, 1] };

function scrambleInputs(): Array<Omit<ScrambleRecord, 'id' | 'matchId'>> {
  return [
    { index: 0, state: sliding, puzzleClass: 'sliding 3x3', bound: { optimal: 31, lowerBound: 31 } },
    { index: 1, state: hanoi, puzzleClass: 'hanoi 4', bound: { lowerBound: 9 } },
    { index: 2, state: swaps, puzzleClass: 'swaps 2x2', bound: { optimal: 2, lowerBound: 2 } },
  ];
}

for (const impl of [memoryImpl, sqliteImpl()]) {
  describe(`Store contract: ${impl.name}`, () => {
    let store: Store;
    beforeEach(() => {
      store = impl.open();
    });
    afterEach(() => {
      store.close();
      impl.cleanup();
    });

    function newMatch() {
      return store.createMatch({ config: { preset: 'x', n: 3 }, seed: 's1', generatorVersion: 'g1', bots: ['a', 'b'] });
    }

    it('adds, lists, gets and removes bots, keeping absent fields absent', () => {
      store.addBot({ name: 'zeta', kind: 'command', cmd: 'node bot.js', cwd: '/tmp', stdio: false });
      store.addBot({ name: 'alpha', kind: 'remote', tokenHash: 'ab'.repeat(32) });
      const alpha = store.getBot('alpha');
      expect(alpha).toMatchObject({ name: 'alpha', kind: 'remote', tokenHash: 'ab'.repeat(32) });
      expect(Object.keys(alpha!).sort()).toEqual(['createdAt', 'kind', 'name', 'tokenHash']);
      expect(Number.isNaN(Date.parse(alpha!.createdAt))).toBe(false);
      expect(store.getBot('zeta')).toMatchObject({ cmd: 'node bot.js', cwd: '/tmp', stdio: false });
      expect(store.listBots().map((b) => b.name)).toEqual(['alpha', 'zeta']);
      expect(store.removeBot('alpha')).toBe(true);
      expect(store.removeBot('alpha')).toBe(false);
      expect(store.getBot('alpha')).toBeUndefined();
    });

    it('rejects a second bot with the same name', () => {
      store.addBot({ name: 'a', kind: 'command', cmd: 'x' });
      expect(() => store.addBot({ name: 'a', kind: 'remote' })).toThrow(/already registered/);
    });

    it('creates matches as running, updates status and lists newest first', () => {
      const m1 = newMatch();
      const m2 = store.createMatch({ config: undefined, seed: '42', generatorVersion: 'g1', bots: ['c'] });
      expect(m1).toMatchObject({ config: { preset: 'x', n: 3 }, seed: 's1', generatorVersion: 'g1', status: 'running' });
      expect(m1.bots).toEqual(['a', 'b']);
      expect(m2.config).toBeNull();
      store.setMatchStatus(m1.id, 'interrupted');
      expect(store.getMatch(m1.id)?.status).toBe('interrupted');
      store.setMatchStatus(m1.id, 'finished');
      expect(store.getMatch(m1.id)).toEqual({ ...m1, status: 'finished' });
      expect(store.listMatches().map((m) => m.id)).toEqual([m2.id, m1.id]);
      expect(store.listMatches(1).map((m) => m.id)).toEqual([m2.id]);
      expect(store.getMatch(9999)).toBeUndefined();
      expect(() => store.setMatchStatus(9999, 'finished')).toThrow(/no match/);
    });

    it('round-trips scrambles exactly, bounds included', () => {
      const m = newMatch();
      const added = store.addScrambles(m.id, scrambleInputs());
      expect(added.map((s) => s.matchId)).toEqual([m.id, m.id, m.id]);
      expect(new Set(added.map((s) => s.id)).size).toBe(3);
      const listed = store.listScrambles(m.id);
      expect(listed).toEqual(added);
      expect(listed.map(({ id: _id, matchId: _m, ...rest }) => rest)).toEqual(scrambleInputs());
      expect('optimal' in listed[1].bound).toBe(false);
    });

    it('inserts no scramble of a batch when one index is taken', () => {
      const m = newMatch();
      store.addScrambles(m.id, scrambleInputs().slice(0, 1));
      expect(() => store.addScrambles(m.id, scrambleInputs())).toThrow(/already has a scramble/);
      expect(store.listScrambles(m.id)).toHaveLength(1);
      expect(() => store.addScrambles(9999, scrambleInputs())).toThrow(/no match/);
    });

    it('round-trips results exactly: a 1,000,000-char move string, swap pairs and optional fields', () => {
      const m = newMatch();
      const [s0, s1, s2] = store.addScrambles(m.id, scrambleInputs());
      const big = 'UDLR'.repeat(250_000);
      const r0: ResultRecord = {
        scrambleId: s0.id,
        bot: 'a',
        verdict: 'solved',
        moveCount: 1_000_000,
        moves: big,
        wallMs: 1234.5678,
        reportedMs: 1200.25,
        claimedOptimal: false,
        note: 'weighted IDA*',
      };
      const r1: ResultRecord = {
        scrambleId: s0.id,
        bot: 'b',
        verdict: 'invalid',
        moveCount: 3,
        moves: 'UUUU',
        wallMs: 2,
        errorIndex: 3,
        error: 'blank cannot move up',
      };
      const r2: ResultRecord = {
        scrambleId: s2.id,
        bot: 'a',
        verdict: 'solved',
        moveCount: 2,
        moves: [
          [1, 4],
          [2, 3],
        ],
        wallMs: 0.5,
        claimedOptimal: true,
      };
      const r3: ResultRecord = { scrambleId: s1.id, bot: 'a', verdict: 'timeout', moveCount: 0, moves: [], wallMs: 5000 };
      for (const r of [r0, r1, r2, r3]) store.recordResult(r);

      const rows = store.listResults(m.id);
      expect(rows.map((r) => [r.scrambleIndex, r.bot])).toEqual([
        [0, 'a'],
        [0, 'b'],
        [1, 'a'],
        [2, 'a'],
      ]);
      const strip = ({ matchId: _m, scrambleIndex: _i, puzzleClass: _c, bound: _b, ...rest }: (typeof rows)[number]) =>
        rest;
      expect(rows.map(strip)).toEqual([r0, r1, r3, r2]);
      expect(rows[0].moves).toHaveLength(1_000_000);
      expect(rows[0].moves).toBe(big);
      expect(Object.keys(rows[2]).sort()).toEqual(
        ['bot', 'bound', 'matchId', 'moveCount', 'moves', 'puzzleClass', 'scrambleId', 'scrambleIndex', 'verdict', 'wallMs'],
      );
      expect(rows[2].moves).toEqual([]);
      expect(rows[0]).toMatchObject({ matchId: m.id, puzzleClass: 'sliding 3x3', bound: { optimal: 31, lowerBound: 31 } });
    });

    it('rejects a second result for the same scramble and bot, and results for unknown scrambles', () => {
      const m = newMatch();
      const [s0] = store.addScrambles(m.id, scrambleInputs());
      const r: ResultRecord = { scrambleId: s0.id, bot: 'a', verdict: 'solved', moveCount: 1, moves: 'U', wallMs: 1 };
      store.recordResult(r);
      expect(() => store.recordResult({ ...r, verdict: 'crash' })).toThrow(/already has a result/);
      expect(() => store.recordResult({ ...r, scrambleId: 9999 })).toThrow(/no scramble/);
      expect(() => store.recordResult({ ...r, bot: 'c', verdict: 'won' as never })).toThrow();
      expect(store.listResults(m.id)).toHaveLength(1);
      expect(store.listResults(m.id)[0].verdict).toBe('solved');
    });

    it('lists all results across matches, optionally for one puzzle class', () => {
      const m1 = newMatch();
      const m2 = newMatch();
      const a = store.addScrambles(m1.id, scrambleInputs());
      const b = store.addScrambles(m2.id, scrambleInputs());
      for (const s of [...b, ...a]) {
        for (const bot of ['a', 'b']) {
          store.recordResult({ scrambleId: s.id, bot, verdict: 'solved', moveCount: 5, moves: 'UDUDU', wallMs: 3 });
        }
      }
      const all = store.allResults();
      expect(all).toHaveLength(12);
      expect(all.map((r) => `${r.matchId}:${r.scrambleIndex}:${r.bot}`).slice(0, 3)).toEqual([
        `${m1.id}:0:a`,
        `${m1.id}:0:b`,
        `${m1.id}:1:a`,
      ]);
      const hanoiRows = store.allResults('hanoi 4');
      expect(hanoiRows).toHaveLength(4);
      expect(hanoiRows.every((r) => r.puzzleClass === 'hanoi 4' && r.bound.lowerBound === 9)).toBe(true);
      expect(store.allResults('no such class')).toEqual([]);
    });

    it('lists summaries: the same rows in the same order, without the moves', () => {
      const m = newMatch();
      const [s0, s1] = store.addScrambles(m.id, scrambleInputs());
      store.recordResult({ scrambleId: s1.id, bot: 'a', verdict: 'solved', moveCount: 3, moves: 'UDU', wallMs: 2, note: 'n' });
      store.recordResult({ scrambleId: s0.id, bot: 'b', verdict: 'invalid', moveCount: 1, moves: 'UX', wallMs: 1, errorIndex: 1, error: 'bad' });
      const drop = ({ moves: _m, ...rest }: { moves: unknown }) => rest;
      expect(store.listSummaries(m.id)).toEqual(store.listResults(m.id).map(drop));
      expect(store.allSummaries()).toEqual(store.allResults().map(drop));
      expect(store.allSummaries('hanoi 4')).toEqual(store.allResults('hanoi 4').map(drop));
      expect(store.listSummaries(m.id).every((r) => !('moves' in r))).toBe(true);
    });

    it('keeps results of a removed bot', () => {
      store.addBot({ name: 'a', kind: 'command', cmd: 'x' });
      const m = newMatch();
      const [s0] = store.addScrambles(m.id, scrambleInputs());
      store.recordResult({ scrambleId: s0.id, bot: 'a', verdict: 'gave-up', moveCount: 0, moves: '', wallMs: 1 });
      store.removeBot('a');
      expect(store.listResults(m.id)).toHaveLength(1);
    });

    it('is not affected by later mutation of the values handed to it', () => {
      const m = newMatch();
      const tiles = [2, 1, 3, 4];
      const state: PuzzleState = { kind: 'swaps', rows: 2, cols: 2, tiles };
      const [s] = store.addScrambles(m.id, [{ index: 0, state, puzzleClass: 'swaps 2x2', bound: { lowerBound: 1 } }]);
      const pairs: Array<[number, number]> = [[1, 2]];
      store.recordResult({ scrambleId: s.id, bot: 'a', verdict: 'solved', moveCount: 1, moves: pairs, wallMs: 1 });
      tiles[0] = 99;
      pairs[0][0] = 99;
      expect(store.listScrambles(m.id)[0].state).toEqual({ kind: 'swaps', rows: 2, cols: 2, tiles: [2, 1, 3, 4] });
      expect(store.listResults(m.id)[0].moves).toEqual([[1, 2]]);
    });
  });
}
