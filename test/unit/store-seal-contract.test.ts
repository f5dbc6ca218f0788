import { randomBytes } from 'node:crypto';
import { beforeEach, expect, it } from 'vitest';
import type { PuzzleState, WireMoves } from '../../src/core/types.ts';
import { MoveRecorder } from '../../src/puzzles/move-pieces.ts';
import { MovesDigest, recordedMovesDigest } from '../../src/store/moves-digest.ts';
import { countSeal, gameSeal, gamesCountSeal, headSeal, keyCheck, matchCountSeal, optimumSeal, versionSeal, matchSeal, removalSeal, resultSeal, scrambleSeal, stateDigest, type SealKey } from '../../src/store/seal.ts';
import type { NewScramble, ResultRecord, Store } from '../../src/store/types.ts';
import { describeEachStore } from '../helpers/store-contract.ts';

// The seals contract (src/store/seal.ts): every store writes the same seals over what it reads back, so an
// untouched database always verifies (no false alarm from a store's own round trip) and what arena audit
// relies on (numbering, counts, removals, answers read in pieces) behaves alike everywhere.

const sliding: PuzzleState = { kind: 'sliding', rows: 3, cols: 3, tiles: [8, 6, 7, 2, 5, 4, 3, 0, 1] };
const swaps: PuzzleState = { kind: 'swaps', rows: 2, cols: 2, tiles: [4, 3, 2, 1] };
const scrambles = (): NewScramble[] => [
  { index: 0, state: sliding, puzzleClass: 'sliding 3x3', bound: { optimal: 31, lowerBound: 31 } },
  { index: 1, state: swaps, puzzleClass: 'swaps 2x2', bound: { lowerBound: 2 }, boundNote: 'oracle pending' },
];

/** An answer over 8 MiB, which the SQLite store keeps in blocks. */
function longAnswer(): ResultRecord['moves'] {
  const rec = new MoveRecorder('text');
  for (let i = 0; i < 9; i++) rec.push('UD'.repeat(1 << 19));
  return rec.result();
}

async function piecesOf(store: Store, scrambleId: number, bot: string): Promise<WireMoves[]> {
  const out: WireMoves[] = [];
  for await (const p of store.readMoves(scrambleId, bot)) out.push(p);
  return out;
}

describeEachStore('Store seal contract', (b) => {
  let store: Store;
  beforeEach(() => {
    store = b.store;
  });

  const newMatch = () => store.createMatch({ config: { count: 2, note: 'é' }, seed: 's', generatorVersion: 'g', bots: ['a', 'b'], scrambles: scrambles() });

  async function sealed(): Promise<SealKey> {
    const key = randomBytes(32);
    const meta = await store.claimSealKey(keyCheck(key));
    const k = { key, dbId: meta.dbId };
    store.sealWith(k);
    return k;
  }

  it('seals - a database has its own id and no key until the first claim, which stays', async () => {
    const meta = await store.sealMeta();
    expect(meta.dbId).toMatch(/^[0-9a-f]{32}$/);
    expect(meta.keyCheck).toBeUndefined();
    const m = await newMatch();
    const [s] = await store.listScrambles(m.id);
    await store.recordResult({ scrambleId: s.id, bot: 'a', verdict: 'solved', moveCount: 1, moves: 'U', wallMs: 1 });
    expect(await store.claimSealKey('first')).toEqual({ dbId: meta.dbId, keyCheck: 'first', sealedAfter: { match: m.id, result: expect.any(Number) }, sealedMatches: 0, sealedGames: 0 });
    expect((await store.claimSealKey('second')).keyCheck).toBe('first');
  });

  it('seals - without a key nothing is sealed or numbered', async () => {
    const m = await newMatch();
    const [s] = await store.listScrambles(m.id);
    await store.recordResult({ scrambleId: s.id, bot: 'a', verdict: 'timeout', moveCount: 0, moves: '', wallMs: 5 });
    const seals = await store.matchSeals(m.id);
    expect(seals).toMatchObject({ sealedResults: 0, removals: [] });
    expect(seals!.seal).toBeUndefined();
    expect(seals!.scrambles.every((x) => x.seal === undefined)).toBe(true);
    expect(seals!.results).toEqual([{ resultId: expect.any(Number), scrambleId: s.id, bot: 'a' }]);
    expect(await store.matchSeals(9999)).toBeUndefined();
  });

  it('seals - match, scrambles and results are sealed over what reads back, numbered 1..n, the count sealed', async () => {
    const k = await sealed();
    const m = await newMatch();
    const [s0, s1] = await store.listScrambles(m.id);
    const records: ResultRecord[] = [
      { scrambleId: s0.id, bot: 'a', verdict: 'solved', moveCount: 9_437_184, moves: longAnswer(), wallMs: 1234.5678, cpuMs: 0.1 + 0.2, reportedMs: 3, claimedOptimal: false, note: 'odd \ud800 and \u0000 text', nodes: 1e12 },
      { scrambleId: s1.id, bot: 'b', verdict: 'solved', moveCount: 2, moves: [[1, 4], [2, 3]], wallMs: 0.5, claimedOptimal: true, worker: 'w1', cpu: 'CPU' },
      { scrambleId: s1.id, bot: 'a', verdict: 'crash', moveCount: 0, moves: [], wallMs: 7, error: 'process exited with code 1' },
      // A hostile bot's notation and reason with lone surrogates: stored replaced, and still verifying.
      { scrambleId: s0.id, bot: 'b', verdict: 'invalid', moveCount: 1, moves: 'U\ud800D', wallMs: 1, errorIndex: 1, error: 'bad \udc00 letter' },
    ];
    for (const r of records) await store.recordResult(r);
    const seals = (await store.matchSeals(m.id))!;
    const match = (await store.getMatch(m.id))!;
    expect(seals.seq).toBe(1);
    expect(seals.seal).toBe(matchSeal(k, { ...match, seq: 1 }));
    expect(await store.sealMeta()).toMatchObject({ sealedMatches: 1, matchesSeal: matchCountSeal(k, 1) });
    expect(seals.sealedResults).toBe(4);
    expect(seals.countSeal).toBe(countSeal(k, m.id, 4));
    for (const s of await store.listScrambles(m.id)) {
      const got = seals.scrambles.find((x) => x.scrambleId === s.id)!;
      expect(got.stateSha256).toBe(stateDigest(s.state));
      expect(got.seal).toBe(scrambleSeal(k, { ...s, stateSha256: stateDigest(s.state) }));
    }
    const summaries = await store.listSummaries(m.id);
    for (const [i, r] of records.entries()) {
      const got = seals.results.find((x) => x.scrambleId === r.scrambleId && x.bot === r.bot)!;
      const summary = summaries.find((x) => x.scrambleId === r.scrambleId && x.bot === r.bot)!;
      const d = new MovesDigest();
      for (const p of await piecesOf(store, r.scrambleId, r.bot)) d.push(p);
      // The digest of what reads back is the digest of what was recorded, and the seal covers what reads back.
      expect(got).toMatchObject({ seq: i + 1, movesSha256: recordedMovesDigest(r.moves) });
      expect(d.hex()).toBe(got.movesSha256);
      expect(got.seal).toBe(resultSeal(k, { ...summary, seq: i + 1, movesSha256: got.movesSha256! }));
    }
  });

  it('seals - a retried write is not numbered again; a changed bound is resealed', async () => {
    const k = await sealed();
    const m = await newMatch();
    const [, s1] = await store.listScrambles(m.id);
    const r: ResultRecord = { scrambleId: s1.id, bot: 'a', verdict: 'solved', moveCount: 2, moves: [[1, 4], [2, 3]], wallMs: 1 };
    await store.recordResult(r);
    await store.recordResult({ ...r, wallMs: 2 });
    expect((await store.matchSeals(m.id))!.sealedResults).toBe(1);
    await store.setScrambleBound(s1.id, { optimal: 2, lowerBound: 2 });
    const [, after] = await store.listScrambles(m.id);
    const got = (await store.matchSeals(m.id))!.scrambles[1];
    expect(got.seal).toBe(scrambleSeal(k, { ...after, stateSha256: stateDigest(after.state) }));
  });

  it('seals - removing a bot records a sealed removal for each numbered result', async () => {
    const k = await sealed();
    const m = await newMatch();
    const [s0, s1] = await store.listScrambles(m.id);
    for (const [s, bot] of [[s0, 'a'], [s0, 'b'], [s1, 'a']] as const) {
      await store.recordResult({ scrambleId: s.id, bot, verdict: 'gave-up', moveCount: 0, moves: '', wallMs: 1 });
    }
    expect(await store.removeResults('a')).toBe(2);
    const seals = (await store.matchSeals(m.id))!;
    expect(seals.results.map((x) => x.seq)).toEqual([2]);
    expect(seals.removals).toEqual([
      { seq: 1, scrambleIndex: 0, bot: 'a', seal: removalSeal(k, { matchId: m.id, seq: 1, scrambleIndex: 0, bot: 'a' }) },
      { seq: 3, scrambleIndex: 1, bot: 'a', seal: removalSeal(k, { matchId: m.id, seq: 3, scrambleIndex: 1, bot: 'a' }) },
    ]);
  });

  it('seals - the head (key check, watermark, older rows) is sealed once, over what each table held unsealed', async () => {
    const m = await newMatch();
    await store.addOptima([{ key: 'old', optimal: 3 }]);
    const k = await sealed();
    expect(await store.sealHead(k)).toBe(true);
    const meta = await store.sealMeta();
    const preKey = { matches: 1, results: 0, optima: 1, versions: 0, games: 0 };
    expect(meta).toMatchObject({ keyCheck: keyCheck(k.key), sealedAfter: { match: m.id, result: 0 }, preKey });
    expect(meta.headSeal).toBe(headSeal(k, { keyCheck: meta.keyCheck!, sealedAfter: meta.sealedAfter!, preKey }));
    // Sealed once: what is written unsealed later does not move the head's counts.
    await newMatch();
    expect(await store.sealHead(k)).toBe(true);
    expect((await store.sealMeta()).headSeal).toBe(meta.headSeal);
  });

  it('seals - optima, ladder versions and games written with a key are sealed; a game resealed with its match', async () => {
    await store.addOptima([{ key: 'before', optimal: 5 }]);
    const k = await sealed();
    await store.addOptima([{ key: 'after', optimal: 7 }, { key: 'before', optimal: 9 }]);
    const ladder = store.ladder();
    const v = await ladder.saveVersion({ bot: 'a', hash: 'h', command: 'a --x', folder: '/bots/a' });
    const g = await ladder.addGame({ seed: 'lg', puzzleClass: 'sliding 3x3', purpose: 'placement', subject: v.id, entries: [{ bot: 'a', versionId: v.id }], why: 'placing a' });
    const m = await newMatch();
    await ladder.setGameMatch(g.id, m.id);
    const t = await store.sealedTables();
    expect(t.optima).toEqual([
      { key: 'after', optimal: 7, seal: optimumSeal(k, 'after', 7) },
      { key: 'before', optimal: 5 },
    ]);
    expect(t.versions).toEqual([{ version: expect.objectContaining({ id: v.id, hash: 'h' }), seal: versionSeal(k, v) }]);
    const [game] = await ladder.listGames();
    expect(game.matchId).toBe(m.id);
    expect(t.games).toEqual([{ game, seq: 1, seal: gameSeal(k, game, 1) }]);
    expect(await store.sealMeta()).toMatchObject({ sealedGames: 1, gamesSeal: gamesCountSeal(k, 1) });
    expect(t.unsealed).toEqual({ matches: 0, results: 0, optima: 1, versions: 0, games: 0 });
  });

  it('seals - an answer reads back in pieces that join to the stored moves; nothing for an unknown result', async () => {
    const m = await newMatch();
    const [s0] = await store.listScrambles(m.id);
    await store.recordResult({ scrambleId: s0.id, bot: 'a', verdict: 'solved', moveCount: 9_437_184, moves: longAnswer(), wallMs: 1 });
    const pieces = await piecesOf(store, s0.id, 'a');
    expect(pieces.join('')).toBe((await store.getResult(s0.id, 'a'))!.moves);
    // Every store keeps a long answer in blocks of at most 1 MiB and hands them out one at a time.
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThanOrEqual(1 << 20);
    expect(await piecesOf(store, s0.id, 'nobody')).toEqual([]);
  });
});
