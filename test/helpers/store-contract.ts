/**
 * The Store contract's bench, shared by its test files: the scrambles every file uses, reading a stored
 * answer back piece by piece, long answers as the referee hands them over, and a describe block run once
 * per store (memory, SQLite, PostgreSQL) with a fresh store before each test.
 */
import { afterAll, afterEach, beforeEach, describe } from 'vitest';
import type { PuzzleState, WireMoves } from '../../src/core/types.ts';
import { MoveRecorder } from '../../src/puzzles/move-pieces.ts';
import type { MatchRecord, NewScramble, ScrambleRecord, Store } from '../../src/store/types.ts';
import { storeImpls, type StoreImpl } from './store-impls.ts';

export const sliding: PuzzleState = { kind: 'sliding', rows: 3, cols: 3, tiles: [8, 6, 7, 2, 5, 4, 3, 0, 1] };
export const hanoi: PuzzleState = { kind: 'hanoi', pegs: 3, start: 'BCCA', goal: 'CCCC' };
export const swaps: PuzzleState = { kind: 'swaps', rows: 2, cols: 2, tiles: [4, 3, 2, 1] };

/** One scramble of each of three kinds, with bounds. */
export function scrambleInputs(): NewScramble[] {
  return [
    { index: 0, state: sliding, puzzleClass: 'sliding 3x3', bound: { optimal: 31, lowerBound: 31 } },
    { index: 1, state: hanoi, puzzleClass: 'hanoi 4', bound: { lowerBound: 9 } },
    { index: 2, state: swaps, puzzleClass: 'swaps 2x2', bound: { optimal: 2, lowerBound: 2 } },
  ];
}

/** Every piece of one stored answer, from piece `from` on. */
export async function pieces(store: Store, scrambleId: number, bot: string, from?: number): Promise<WireMoves[]> {
  const out: WireMoves[] = [];
  for await (const p of store.readMoves(scrambleId, bot, from)) out.push(p);
  return out;
}

/** A long answer as the referee hands it to a store: 4.75 M Hanoi moves, or 2.2 M swap pairs, in blocks. */
export function longAnswers() {
  const text = new MoveRecorder('text');
  for (let i = 0; i < 50; i++) text.push('ACABCB'.repeat(31_666) + 'AC');
  const pairs = new MoveRecorder('pairs');
  for (let i = 0; i < 22; i++) pairs.push(Array.from({ length: 100_000 }, (_, k): [number, number] => [(i + k) % 60_000, 70_000 + k]));
  return { text: text.result(), pairs: pairs.result() };
}

/** What a contract test works with: the store opened for it, and matches made in it. */
export interface StoreBench {
  readonly impl: StoreImpl;
  store: Store;
  /** A match with the first scramble of scrambleInputs(); tests add the others as they need. */
  newMatch(scrambles?: NewScramble[]): Promise<MatchRecord>;
  /** A match holding all of scrambleInputs(), and its stored scrambles. */
  matchWithScrambles(): Promise<{ m: MatchRecord; scrambles: ScrambleRecord[] }>;
}

/** `body` once per store, as `<title>: <store>`, each test with a store of its own. */
export function describeEachStore(title: string, body: (b: StoreBench) => void): void {
  for (const impl of storeImpls()) {
    describe(`${title}: ${impl.name}`, () => {
      const b: StoreBench = {
        impl,
        store: undefined as unknown as Store,
        newMatch: (scrambles = scrambleInputs().slice(0, 1)) =>
          b.store.createMatch({ config: { preset: 'x', n: 3 }, seed: 's1', generatorVersion: 'g1', bots: ['a', 'b'], scrambles }),
        matchWithScrambles: async () => {
          const m = await b.newMatch(scrambleInputs());
          return { m, scrambles: await b.store.listScrambles(m.id) };
        },
      };
      beforeEach(async () => {
        b.store = await impl.open();
      });
      afterEach(async () => {
        await b.store.close();
        await impl.cleanup();
      });
      afterAll(async () => {
        await impl.done?.();
      });
      body(b);
    });
  }
}
