import { describe, expect, it } from 'vitest';
import type { PuzzleState } from '../../src/core/types.ts';
import { fateOf, optimaOwed } from '../../src/referee/decide/match-fate.ts';
import { resumable } from '../../src/referee/decide/resume-check.ts';
import type { MatchConfig } from '../../src/referee/match-config.ts';
import { ORACLE_PENDING } from '../../src/referee/refine-bounds.ts';
import { runResumedMatch, runNewMatch, type MatchDeps } from '../../src/referee/run-match.ts';
import type { SprtParams } from '../../src/stats/sprt.ts';
import { createMemoryStore } from '../../src/store/memory/memory-store.ts';
import type { Store } from '../../src/store/types.ts';
import { distinctBoards } from '../helpers/boards.ts';
import { FakeClock } from '../helpers/fake-clock.ts';
import { replyWith, ScriptedLauncher } from '../helpers/scripted-link.ts';
import { ScriptedOracle } from '../helpers/scripted-oracle.ts';

// The one decider: an SPRT that decides early still has the optimum of every scramble it played proved and
// stored before its match finishes, in-process (memory store, scripted bots and oracle, fake clock); no
// scramble nobody played is ever proved. How a worker settles a decided match: queue-job-source.test.ts.

const boards = distinctBoards(40);
const states: PuzzleState[] = boards.map((b) => b.state);
const solve = (s: PuzzleState) => boards.find((b) => JSON.stringify(b.state) === JSON.stringify(s))!.solution;
const sprt: SprtParams = { elo0: 0, elo1: 200, alpha: 0.05, beta: 0.05, model: 'normalized' };

function config(o: Partial<MatchConfig> = {}): MatchConfig {
  return { bots: ['a', 'b'], count: states.length, seed: 'unit', timeLimitMs: 1000, maxMoves: 100, concurrency: 1, sprt, ...o };
}

/**
 * Deps whose bot a answers two moves over the optimum and b four: a wins every scramble, and no answer is as
 * short as the bound, so every optimum needs the oracle.
 */
function deps(store: Store, clock: FakeClock, extra: Partial<MatchDeps>): MatchDeps {
  const plans = { a: () => replyWith((s) => `${solve(s)}LR`, { delayMs: 10 }), b: () => replyWith((s) => `${solve(s)}LRLR`, { delayMs: 10 }) };
  return { store, clock, makeLauncher: (bot) => new ScriptedLauncher(bot, plans[bot as 'a' | 'b'], { clock }), ...extra };
}

/**
 * Index of every scramble with a result, and by index the stored optimum and note of every scramble (3×3
 * bounds are exact from the start: a proof shows as the oracle's note gone).
 */
async function proofs(store: Store, matchId: number) {
  const scrambles = await store.listScrambles(matchId);
  const played = [...new Set((await store.listSummaries(matchId)).map((r) => r.scrambleIndex))].sort((x, y) => x - y);
  return { played, optimal: scrambles.map((s) => s.bound.optimal), notes: scrambles.map((s) => s.boundNote) };
}

describe('decider - the rules', () => {
  it('match fate - decided by the SPRT before complete; complete once every play has its result; else open', () => {
    expect(fateOf({ decision: 'H1' }, 3, 80)).toBe('decided');
    expect(fateOf({ decision: 'H0' }, 80, 80)).toBe('decided');
    expect(fateOf({ decision: null }, 80, 80)).toBe('complete');
    expect(fateOf(undefined, 79, 80)).toBe('open');
  });

  it('optima owed - only scrambles marked for the oracle that somebody played', () => {
    const s = (id: number, boundNote?: string) => ({ id, matchId: 1, index: id, state: states[0]!, puzzleClass: 'sliding 3x3', bound: { lowerBound: 1 }, ...(boundNote ? { boundNote } : {}) });
    const owed = optimaOwed([s(1, ORACLE_PENDING), s(2, ORACLE_PENDING), s(3), s(4, 'budget spent')], [{ scrambleId: 1 }, { scrambleId: 3 }, { scrambleId: 4 }]);
    expect(owed.map((x) => x.id)).toEqual([1]);
  });

  it('resume check - refuses an unknown match, a finished one, and a config this version cannot read', async () => {
    const store = createMemoryStore();
    const scrambles = [{ index: 0, state: states[0]!, puzzleClass: 'sliding 3x3', bound: { lowerBound: 1 } }];
    const make = (cfg: unknown) => store.createMatch({ config: cfg as MatchConfig, seed: 's', generatorVersion: 'g', bots: ['a'], scrambles });
    const good = await make(config({ bots: ['a'], sprt: undefined }));
    const bad = await make({ bots: ['a'], count: 'many' });
    const done = await make(config({ bots: ['a'], sprt: undefined }));
    await store.setMatchStatus(done.id, 'finished');
    expect(await resumable(store, 99)).toMatchObject({ ok: false, code: 'no-match' });
    expect(await resumable(store, done.id)).toMatchObject({ ok: false, code: 'finished' });
    expect(await resumable(store, bad.id)).toMatchObject({ ok: false, reason: expect.stringContaining(`match ${bad.id} cannot be resumed`) });
    expect(await resumable(store, good.id)).toMatchObject({ ok: true, value: { match: { id: good.id }, config: { bots: ['a'] } } });
  });
});

describe('decider - a local match', () => {
  it('runMatch - a decided SPRT proves the optimum of every scramble it played, and of no other, before the match finishes', async () => {
    const store = createMemoryStore();
    const clock = new FakeClock();
    const oracle = new ScriptedOracle(clock, 100, solve);
    const run = await clock.run(runNewMatch(config(), states, deps(store, clock, { oracle })));
    expect(run.status).toBe('finished');
    expect(run.sprt?.decision).toBe('H1');
    const k = run.sprt!.scrambles;
    expect(k).toBeLessThan(states.length / 2);
    const { played, optimal, notes } = await proofs(store, run.match.id);
    expect(played).toEqual(Array.from({ length: k }, (_, i) => i));
    for (const i of played) expect(optimal[i]).toBe(boards[i]!.solution.length);
    // The scrambles nobody played were never asked about, and still wait for the oracle.
    expect(oracle.asked).toHaveLength(k);
    expect(new Set(oracle.asked.map((s) => JSON.stringify(s)))).toEqual(new Set(states.slice(0, k).map((s) => JSON.stringify(s))));
    expect(notes.slice(0, k).every((n) => n === undefined)).toBe(true);
    expect(notes.slice(k).every((n) => n === ORACLE_PENDING)).toBe(true);
  });

  it('runMatch - stopped while it proves the optima of a decided SPRT, the match stays unfinished; a resume proves the rest, and no other', async () => {
    const store = createMemoryStore();
    const clock = new FakeClock();
    const oracle = new ScriptedOracle(clock, 1000, solve);
    const stop = new AbortController();
    let decidedAt: number | undefined;
    const first = runNewMatch(config(), states, deps(store, clock, { oracle, signal: stop.signal, onResult: (e) => (decidedAt ??= e.sprt?.decision ? clock.now() : undefined) }));
    // The bots take 10 ms a solve, the oracle a second a scramble: decided well before 2.5 s, two proofs in by then.
    await clock.advance(2500);
    expect(decidedAt).toBeLessThan(1000);
    stop.abort();
    const run = await clock.run(first);
    expect(run.status).toBe('interrupted');
    expect(run.sprt?.decision).toBe('H1');
    const k = run.sprt!.scrambles;
    const before = await proofs(store, run.match.id);
    const proved = before.notes.flatMap((n, i) => (n === ORACLE_PENDING ? [] : [i]));
    expect(proved).toEqual([0, 1]);

    const again = new FakeClock();
    const second = new ScriptedOracle(again, 10, solve);
    const resumed = await again.run(runResumedMatch(run.match.id, deps(store, again, { oracle: second })));
    expect(resumed.ok && resumed.value.status).toBe('finished');
    // No play was needed: only the optima still owed were proved, each once.
    expect(resumed.ok && resumed.value.sprt).toEqual(run.sprt);
    expect((await store.listSummaries(run.match.id)).length).toBe((await proofs(store, run.match.id)).played.length * 2);
    const owed = before.played.filter((i) => !proved.includes(i));
    expect(second.asked.map((s) => states.indexOf(states.find((x) => JSON.stringify(x) === JSON.stringify(s))!)).sort((x, y) => x - y)).toEqual(owed);
    const after = await proofs(store, run.match.id);
    for (const i of after.played) expect([after.optimal[i], after.notes[i]]).toEqual([boards[i]!.solution.length, undefined]);
    expect(after.played.length).toBeGreaterThanOrEqual(k);
    expect(after.notes.filter((n) => n === ORACLE_PENDING)).toHaveLength(states.length - after.played.length);
  });
});
