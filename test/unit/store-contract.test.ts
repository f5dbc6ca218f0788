import { beforeEach, expect, it } from 'vitest';
import type { PuzzleState } from '../../src/core/types.ts';
import { createRng } from '../../src/core/rng.ts';
import { VERDICTS } from '../../src/core/verdict.ts';
import type { NewScramble, ResultRecord, Store } from '../../src/store/types.ts';
import { describeEachStore, scrambleInputs, sliding, hanoi, swaps } from '../helpers/store-contract.ts';

describeEachStore('Store contract', (b) => {
  let store: Store;
  beforeEach(() => {
    store = b.store;
  });
  const { newMatch, matchWithScrambles } = b;

  it('adds, lists, gets and removes bots, keeping absent fields absent', async () => {
    await store.addBot({ name: 'zeta', kind: 'command', cmd: 'node bot.js', cwd: '/tmp', stdio: false });
    await store.addBot({ name: 'alpha', kind: 'remote', tokenHash: 'ab'.repeat(32) });
    const alpha = await store.getBot('alpha');
    expect(alpha).toMatchObject({ name: 'alpha', kind: 'remote', tokenHash: 'ab'.repeat(32) });
    expect(Object.keys(alpha!).sort()).toEqual(['createdAt', 'kind', 'name', 'tokenHash']);
    expect(Number.isNaN(Date.parse(alpha!.createdAt))).toBe(false);
    expect(await store.getBot('zeta')).toMatchObject({ cmd: 'node bot.js', cwd: '/tmp', stdio: false });
    expect((await store.listBots()).map((b) => b.name)).toEqual(['alpha', 'zeta']);
    expect(await store.removeBot('alpha')).toBe(true);
    expect(await store.removeBot('alpha')).toBe(false);
    expect(await store.getBot('alpha')).toBeUndefined();
  });

  it('stores a command bot\'s snapshot and runtime, and replaces them; a remote bot has none', async () => {
    const runtime = { program: '/opt/py/bin/python3', binds: ['/opt/py'], pathDirs: ['/opt/py/bin'] };
    await store.addBot({ name: 'snap', kind: 'command', cmd: 'python3 bot.py', cwd: '/bots/snap', snapshot: 'a'.repeat(64), runtime });
    expect(await store.getBot('snap')).toMatchObject({ snapshot: 'a'.repeat(64), runtime });
    expect(await store.setBotSnapshot('snap', 'b'.repeat(64), undefined)).toBe(true);
    const after = await store.getBot('snap');
    expect(after?.snapshot).toBe('b'.repeat(64));
    expect(after?.runtime).toBeUndefined();
    await store.addBot({ name: 'far', kind: 'remote', tokenHash: 'ab'.repeat(32) });
    expect(await store.setBotSnapshot('far', 'c'.repeat(64), runtime)).toBe(false);
    expect(await store.setBotSnapshot('nobody', 'c'.repeat(64), runtime)).toBe(false);
    expect((await store.getBot('far'))?.snapshot).toBeUndefined();
  });

  it('rejects a second bot with the same name', async () => {
    await store.addBot({ name: 'a', kind: 'command', cmd: 'x' });
    await expect(store.addBot({ name: 'a', kind: 'remote' })).rejects.toThrow(/already registered/);
  });

  it('creates matches as running, updates status and lists newest first', async () => {
    const m1 = await newMatch();
    const m2 = await store.createMatch({ config: undefined, seed: '42', generatorVersion: 'g1', bots: ['c'], scrambles: scrambleInputs() });
    expect(m1).toMatchObject({ config: { preset: 'x', n: 3 }, seed: 's1', generatorVersion: 'g1', status: 'running' });
    expect(m1.bots).toEqual(['a', 'b']);
    expect(m2.config).toBeNull();
    await store.setMatchStatus(m1.id, 'interrupted');
    expect((await store.getMatch(m1.id))?.status).toBe('interrupted');
    await store.setMatchStatus(m1.id, 'finished');
    expect(await store.getMatch(m1.id)).toEqual({ ...m1, status: 'finished' });
    expect((await store.listMatches()).map((m) => m.id)).toEqual([m2.id, m1.id]);
    expect((await store.listMatches(1)).map((m) => m.id)).toEqual([m2.id]);
    expect(await store.getMatch(9999)).toBeUndefined();
    await expect(store.setMatchStatus(9999, 'finished')).rejects.toThrow(/no match/);
  });

  it('creates a match and its scrambles together, or neither', async () => {
    const { m, scrambles } = await matchWithScrambles();
    expect(scrambles.map(({ id: _id, matchId: _m, ...rest }) => rest)).toEqual(scrambleInputs());
    expect(scrambles.every((s) => s.matchId === m.id)).toBe(true);
    await expect(newMatch([])).rejects.toThrow(/at least one scramble/);
    const clash = [...scrambleInputs(), { ...scrambleInputs()[0] }];
    await expect(newMatch(clash)).rejects.toThrow();
    // Neither attempt left a match behind.
    expect((await store.listMatches()).map((x) => x.id)).toEqual([m.id]);
  });

  it('round-trips scrambles exactly, bounds included', async () => {
    const m = await newMatch();
    const added = await store.addScrambles(m.id, scrambleInputs().slice(1));
    expect(added.map((s) => s.matchId)).toEqual([m.id, m.id]);
    const listed = await store.listScrambles(m.id);
    expect(new Set(listed.map((s) => s.id)).size).toBe(3);
    expect(listed.slice(1)).toEqual(added);
    expect(listed.map(({ id: _id, matchId: _m, ...rest }) => rest)).toEqual(scrambleInputs());
    expect('optimal' in listed[1].bound).toBe(false);
  });

  it('lists scrambles a page at a time, and counts them per class without reading states', async () => {
    const { m, scrambles } = await matchWithScrambles();
    const more = scrambleInputs().map((x, i) => ({ ...x, index: 3 + i }));
    await store.addScrambles(m.id, more);
    const all = await store.listScrambles(m.id);
    expect(all.map((x) => x.index)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(all.slice(0, 3)).toEqual(scrambles);
    expect(await store.listScrambles(m.id, { from: 0, limit: 2 })).toEqual(all.slice(0, 2));
    expect(await store.listScrambles(m.id, { from: 2, limit: 3 })).toEqual(all.slice(2, 5));
    expect(await store.listScrambles(m.id, { from: 4, limit: 100 })).toEqual(all.slice(4));
    expect(await store.listScrambles(m.id, { from: 6, limit: 1 })).toEqual([]);
    expect(await store.scrambleClasses(m.id)).toEqual([
      { puzzleClass: 'sliding 3x3', count: 2 },
      { puzzleClass: 'hanoi 4', count: 2 },
      { puzzleClass: 'swaps 2x2', count: 2 },
    ]);
    expect(await store.scrambleClasses(9999)).toEqual([]);
  });

  it('inserts no scramble of a batch when one index is taken', async () => {
    const m = await newMatch();
    await expect(store.addScrambles(m.id, scrambleInputs())).rejects.toThrow(/already has a scramble/);
    expect(await store.listScrambles(m.id)).toHaveLength(1);
    await expect(store.addScrambles(9999, scrambleInputs())).rejects.toThrow(/no match/);
  });

  it('round-trips results exactly: a 1,000,000-char move string, swap pairs and optional fields', async () => {
    const { m, scrambles } = await matchWithScrambles();
    const [s0, s1, s2] = scrambles;
    const big = 'UDLR'.repeat(250_000);
    const r0: ResultRecord = {
      scrambleId: s0.id,
      bot: 'a',
      verdict: 'solved',
      moveCount: 1_000_000,
      moves: big,
      wallMs: 1234.5678,
      cpuMs: 2469.0625,
      reportedMs: 1200.25,
      claimedOptimal: false,
      note: 'weighted IDA*',
      worker: 'w1',
      cpu: 'Test CPU @ 3.0GHz',
    };
    const r1: ResultRecord = {
      scrambleId: s0.id,
      bot: 'b',
      verdict: 'invalid',
      moveCount: 3,
      moves: 'UUUU',
      wallMs: 2,
      cpuMs: 0,
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
    for (const r of [r0, r1, r2, r3]) await store.recordResult(r);

    const rows = await store.listResults(m.id);
    expect(rows.map((r) => [r.scrambleIndex, r.bot])).toEqual([
      [0, 'a'],
      [0, 'b'],
      [1, 'a'],
      [2, 'a'],
    ]);
    const strip = ({ matchId: _m, scrambleIndex: _i, puzzleClass: _c, bound: _b, ...rest }: (typeof rows)[number]) =>
      rest;
    expect(rows.map(strip)).toEqual([r0, r1, r3, r2]);
    // CPU time (beyond the wall time for a parallel bot, 0 for an idle one) reads back exactly, summaries too.
    expect((await store.listSummaries(m.id)).map((r) => r.cpuMs)).toEqual([2469.0625, 0, undefined, undefined]);
    expect(rows[0].moves).toHaveLength(1_000_000);
    expect(rows[0].moves).toBe(big);
    expect(Object.keys(rows[2]).sort()).toEqual(
      ['bot', 'bound', 'matchId', 'moveCount', 'moves', 'puzzleClass', 'scrambleId', 'scrambleIndex', 'verdict', 'wallMs'],
    );
    expect(rows[2].moves).toEqual([]);
    expect(rows[0]).toMatchObject({ matchId: m.id, puzzleClass: 'sliding 3x3', bound: { optimal: 31, lowerBound: 31 } });
  });

  it('keeps the first result for a scramble and bot (a retried write changes nothing), rejects unknown scrambles', async () => {
    const { m, scrambles } = await matchWithScrambles();
    const r: ResultRecord = { scrambleId: scrambles[0].id, bot: 'a', verdict: 'solved', moveCount: 1, moves: 'U', wallMs: 1 };
    await store.recordResult(r);
    await store.recordResult({ ...r, verdict: 'crash', moveCount: 0, moves: '', wallMs: 9, error: 'second write' });
    await expect(store.recordResult({ ...r, scrambleId: 9999 })).rejects.toThrow(/no scramble/);
    await expect(store.recordResult({ ...r, bot: 'c', verdict: 'won' as never })).rejects.toThrow();
    const rows = await store.listResults(m.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject(r);
    expect(rows[0].error).toBeUndefined();
    // The same bot name on another scramble is a different result.
    await store.recordResult({ ...r, scrambleId: scrambles[1].id });
    expect(await store.listResults(m.id)).toHaveLength(2);
  });

  it('lists all results across matches, optionally for one puzzle class', async () => {
    const a = (await matchWithScrambles()).scrambles;
    const b = (await matchWithScrambles()).scrambles;
    const [m1, m2] = [a[0].matchId, b[0].matchId];
    expect(m1).not.toBe(m2);
    for (const s of [...b, ...a]) {
      for (const bot of ['a', 'b']) {
        await store.recordResult({ scrambleId: s.id, bot, verdict: 'solved', moveCount: 5, moves: 'UDUDU', wallMs: 3 });
      }
    }
    const all = await store.allResults();
    expect(all).toHaveLength(12);
    expect(all.map((r) => `${r.matchId}:${r.scrambleIndex}:${r.bot}`).slice(0, 3)).toEqual([`${m1}:0:a`, `${m1}:0:b`, `${m1}:1:a`]);
    const hanoiRows = await store.allResults('hanoi 4');
    expect(hanoiRows).toHaveLength(4);
    expect(hanoiRows.every((r) => r.puzzleClass === 'hanoi 4' && r.bound.lowerBound === 9)).toBe(true);
    expect(await store.allResults('no such class')).toEqual([]);
  });

  it('lists summaries: the same rows in the same order, without the moves', async () => {
    const { m, scrambles } = await matchWithScrambles();
    const [s0, s1] = scrambles;
    await store.recordResult({ scrambleId: s1.id, bot: 'a', verdict: 'solved', moveCount: 3, moves: 'UDU', wallMs: 2, note: 'n' });
    await store.recordResult({ scrambleId: s0.id, bot: 'b', verdict: 'invalid', moveCount: 1, moves: 'UX', wallMs: 1, errorIndex: 1, error: 'bad' });
    const drop = ({ moves: _m, ...rest }: { moves: unknown }) => rest;
    expect(await store.listSummaries(m.id)).toEqual((await store.listResults(m.id)).map(drop));
    expect(await store.allSummaries()).toEqual((await store.allResults()).map(drop));
    expect(await store.allSummaries('hanoi 4')).toEqual((await store.allResults('hanoi 4')).map(drop));
    expect((await store.listSummaries(m.id)).every((r) => !('moves' in r))).toBe(true);
  });

  it('reads summary columns: every result once, the same fields, wall times bit for bit', async () => {
    expect((await store.summaryColumns()).length).toBe(0);
    const { scrambles } = await matchWithScrambles();
    const rng = createRng('columns');
    const bots = ['b', 'a z', 'é-bot', 'ida-star --weight 2'];
    for (const s of scrambles) {
      for (const [i, bot] of bots.entries()) {
        // Awkward doubles on purpose: they must come back exactly, whatever the store's text round trip.
        const wallMs = (rng.next() / 7) * 0.1 + 1e-9 * i;
        await store.recordResult({ scrambleId: s.id, bot, verdict: VERDICTS[(s.index + i) % VERDICTS.length], moveCount: i + s.index, moves: [], wallMs });
      }
    }
    await store.setScrambleBound(scrambles[1].id, { optimal: 40, lowerBound: 40 });
    const c = await store.summaryColumns();
    const decoded = (i: number) => [c.scrambleId[i], c.matchId[i], c.bots[c.bot[i]], c.classes[c.puzzleClass[i]], VERDICTS[c.verdict[i]], c.moveCount[i], c.wallMs[i], c.optimal[i] >= 0 ? c.optimal[i] : undefined, c.lowerBound[i]];
    const expected = (await store.allSummaries()).map((r) => [r.scrambleId, r.matchId, r.bot, r.puzzleClass, r.verdict, r.moveCount, r.wallMs, r.bound.optimal, r.bound.lowerBound]);
    const key = (x: unknown[]) => `${x[0]}\u0000${x[2]}`;
    const sortRows = (rows: unknown[][]) => [...rows].sort((x, y) => (key(x) < key(y) ? -1 : 1));
    expect(c.length).toBe(12);
    expect(sortRows(Array.from({ length: c.length }, (_, i) => decoded(i)))).toEqual(sortRows(expected));
    expect(new Set(c.bots).size).toBe(c.bots.length);
  });

  it('records every verdict code', async () => {
    const states = VERDICTS.map((_, index) => ({ index, state: { kind: 'swaps', rows: 1, cols: 2, tiles: [2, 1] } as PuzzleState, puzzleClass: 'swaps 1x2', bound: { lowerBound: 1 } }));
    const m = await newMatch(states);
    const scrambles = await store.listScrambles(m.id);
    for (const [i, verdict] of VERDICTS.entries()) {
      await store.recordResult({ scrambleId: scrambles[i].id, bot: 'a', verdict, moveCount: 0, moves: [], wallMs: 1, ...(verdict === 'solved' ? {} : { error: verdict }) });
    }
    expect((await store.listSummaries(m.id)).map((r) => r.verdict)).toEqual([...VERDICTS]);
  });

  it('keeps results of a removed bot', async () => {
    await store.addBot({ name: 'a', kind: 'command', cmd: 'x' });
    const { m, scrambles } = await matchWithScrambles();
    await store.recordResult({ scrambleId: scrambles[0].id, bot: 'a', verdict: 'gave-up', moveCount: 0, moves: '', wallMs: 1 });
    await store.removeBot('a');
    expect(await store.listResults(m.id)).toHaveLength(1);
  });

  it('replaces a scramble bound and its note; results read afterwards carry the new bound', async () => {
    const m = await newMatch([{ ...scrambleInputs()[1], boundNote: 'oracle pending' }]);
    const [s] = await store.listScrambles(m.id);
    expect(s).toMatchObject({ bound: { lowerBound: 9 }, boundNote: 'oracle pending' });
    await store.recordResult({ scrambleId: s.id, bot: 'a', verdict: 'solved', moveCount: 11, moves: 'ABACBCAB', wallMs: 1, nodes: 123456789012 });
    await store.setScrambleBound(s.id, { optimal: 11, lowerBound: 11 });
    const [after] = await store.listScrambles(m.id);
    expect(after).toEqual({ ...s, bound: { optimal: 11, lowerBound: 11 }, boundNote: undefined });
    expect('boundNote' in after).toBe(false);
    expect((await store.listSummaries(m.id))[0]).toMatchObject({ bound: { optimal: 11, lowerBound: 11 }, nodes: 123456789012 });
    await store.setScrambleBound(s.id, { lowerBound: 10 }, 'budget spent');
    const [again] = await store.listScrambles(m.id);
    expect(again.bound).toEqual({ lowerBound: 10 });
    expect(again.boundNote).toBe('budget spent');
    await expect(store.setScrambleBound(9999, { lowerBound: 1 })).rejects.toThrow(/no scramble/);
  });

  it('gets one result with its moves or without, and removes every result of one bot name', async () => {
    const { m, scrambles } = await matchWithScrambles();
    const r = (bot: string, i: number): ResultRecord => ({ scrambleId: scrambles[i].id, bot, verdict: 'solved', moveCount: 2, moves: 'UD', wallMs: 1 });
    for (const bot of ['a', 'a --x', 'b']) for (const i of [0, 1]) await store.recordResult(r(bot, i));
    expect(await store.getResult(scrambles[1].id, 'a --x')).toMatchObject({ ...r('a --x', 1), matchId: m.id, scrambleIndex: 1 });
    expect(await store.getResult(scrambles[2].id, 'a')).toBeUndefined();
    // The same row without its moves, for readers that stream them (readMoves).
    const { moves: _moves, ...summary } = (await store.getResult(scrambles[1].id, 'a --x'))!;
    expect(await store.getSummary(scrambles[1].id, 'a --x')).toEqual(summary);
    expect(await store.getSummary(scrambles[2].id, 'a')).toBeUndefined();
    expect(await store.removeResults('a')).toBe(2);
    expect(await store.removeResults('a')).toBe(0);
    expect((await store.listSummaries(m.id)).map((x) => x.bot).sort()).toEqual(['a --x', 'a --x', 'b', 'b']);
    // The pair can be recorded again once removed.
    await store.recordResult(r('a', 0));
    expect(await store.getResult(scrambles[0].id, 'a')).toMatchObject(r('a', 0));
  });

  it('filters listed matches by status, bot (name or recorded variant) and puzzle class (whole-word prefix)', async () => {
    const [sl, ha, sw] = scrambleInputs();
    const make = (bots: string[], scrambles: NewScramble[]) => store.createMatch({ config: null, seed: '1', generatorVersion: 'g', bots, scrambles });
    const m1 = await make(['ida-star', 'constructive'], [sl]);
    const m2 = await make(['ida-star --weight 2'], [ha, sw]);
    const m3 = await make(['ida-starling'], [{ ...ha, puzzleClass: 'hanoi 4 random-goal' }]);
    await store.setMatchStatus(m2.id, 'finished');
    const ids = async (f: Parameters<Store['listMatches']>[1], limit?: number) => (await store.listMatches(limit, f)).map((m) => m.id);
    expect(await ids({})).toEqual([m3.id, m2.id, m1.id]);
    expect(await ids({ status: 'finished' })).toEqual([m2.id]);
    expect(await ids({ bot: 'ida-star' })).toEqual([m2.id, m1.id]);
    expect(await ids({ bot: 'ida-star --weight 2' })).toEqual([m2.id]);
    expect(await ids({ bot: 'ida-star', status: 'running' })).toEqual([m1.id]);
    expect(await ids({ puzzleClass: 'hanoi' })).toEqual([m3.id, m2.id]);
    expect(await ids({ puzzleClass: 'hanoi 4' })).toEqual([m3.id, m2.id]);
    expect(await ids({ puzzleClass: 'hanoi 4 random-goal' })).toEqual([m3.id]);
    expect(await ids({ puzzleClass: 'swaps 2x2' })).toEqual([m2.id]);
    expect(await ids({ puzzleClass: 'slid' })).toEqual([]);
    expect(await ids({ bot: 'ida' })).toEqual([]);
    expect(await ids({ puzzleClass: 'hanoi' }, 1)).toEqual([m3.id]);
  });

  it('caches exact optima by state key: unknown keys absent, the first value kept, many keys in one call', async () => {
    expect(await store.knownOptima([])).toEqual(new Map());
    expect(await store.knownOptima(['{"kind":"sliding","rows":4}'])).toEqual(new Map());
    await store.addOptima([]);
    await store.addOptima([
      { key: 'a', optimal: 52 },
      { key: 'b', optimal: 0 },
    ]);
    // A key already cached keeps its value; new ones in the same call are added.
    await store.addOptima([
      { key: 'a', optimal: 60 },
      { key: 'c "quoted", [bracketed]', optimal: 7 },
    ]);
    const many = Array.from({ length: 2000 }, (_, i) => ({ key: `k${i}`, optimal: i % 80 }));
    await store.addOptima(many);
    const got = await store.knownOptima(['a', 'b', 'c "quoted", [bracketed]', 'missing', ...many.map((m) => m.key)]);
    expect(got.get('a')).toBe(52);
    expect(got.get('b')).toBe(0);
    expect(got.get('c "quoted", [bracketed]')).toBe(7);
    expect(got.has('missing')).toBe(false);
    expect(got.size).toBe(3 + many.length);
    expect(many.every((m) => got.get(m.key) === m.optimal)).toBe(true);
    await expect(store.addOptima([{ key: 'neg', optimal: -1 }])).rejects.toThrow();
  });

});
