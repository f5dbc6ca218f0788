import { describe, expect, it } from 'vitest';
import type { PuzzleState } from '../../src/core/types.ts';
import { runResumedMatch, runNewMatch, type MatchDeps, type ResultEvent } from '../../src/referee/run-match.ts';
import { ORACLE_PENDING, stateKey, type BoundEvent } from '../../src/referee/refine-bounds.ts';
import { ScriptedOracle } from '../helpers/scripted-oracle.ts';
import { replyWith, ScriptedLauncher, silent, type ConnectPlan } from '../helpers/scripted-link.ts';
import { answers, config, harness, solve, states } from '../helpers/match-harness.ts';
import { FakeClock } from '../helpers/fake-clock.ts';

// The exact oracle inside whole matches, in-process: memory store, scripted bots, a scripted oracle, fake
// clock. Where an optimum comes from (the cache, an answer at the bound, the oracle given the shortest
// answer), when the oracle is asked, and that every timed solve holds it.


describe('runMatch with the exact oracle', () => {
  it('runMatch - the oracle is asked about a scramble once its plays are in, with the shortest answer; results that came first are scored against the optimum', async () => {
    // Both bots answer two moves longer than the optimum, so no answer settles a scramble by itself.
    const long = (extra: string) => () => replyWith((s) => `${solve(s)}${extra}`, { delayMs: 10 });
    const h = harness({ a: long('LR'), b: long('LRLR') });
    const oracle = new ScriptedOracle(h.clock, 1000, solve, (s) => JSON.stringify(s) === JSON.stringify(states[1]));
    const bounds: BoundEvent[] = [];
    const run = await h.clock.run(runNewMatch(config(['a', 'b']), states, h.deps({ oracle, onBound: (e) => bounds.push(e) })));
    expect(run.status).toBe('finished');
    // Scramble 0's plays were in at t = 20; the oracle then answered one scramble per 1000 ms, in order, and
    // the match ended only with its last answer.
    expect(h.events.at(-1)!.done).toBe(12);
    expect(h.clock.now()).toBe(6020);
    expect(oracle.asked).toEqual(states);
    expect(oracle.known).toEqual(states.map((s) => solve(s).length + 2));
    expect(bounds.map((e) => [e.scrambleIndex, e.exact, e.source, e.done])).toEqual([
      [0, true, 'oracle', 1],
      [1, false, undefined, 2],
      [2, true, 'oracle', 3],
      [3, true, 'oracle', 4],
      [4, true, 'oracle', 5],
      [5, true, 'oracle', 6],
    ]);
    const scrambles = await h.store.listScrambles(run.match.id);
    expect(scrambles.map((s) => s.boundNote)).toEqual([undefined, 'budget spent', undefined, undefined, undefined, undefined]);
    const rows = await h.store.listSummaries(run.match.id);
    for (const r of rows) {
      const n = solve(states[r.scrambleIndex]).length;
      if (r.scrambleIndex === 1) expect(r.bound.optimal).toBeUndefined();
      else expect(r.bound).toEqual({ optimal: n, lowerBound: n });
    }
    // Every optimum found is in the store's cache, by state.
    const cached = await h.store.knownOptima(states.map(stateKey));
    expect([...cached.values()]).toEqual(states.filter((_, i) => i !== 1).map((s) => solve(s).length));
  });

  it('runMatch - an answer as short as the bound, or a cached optimum, settles a scramble without asking the oracle', async () => {
    // a answers scrambles 0-2 optimally (at the bound), the others two moves longer.
    const h = harness({ a: () => replyWith((s) => (states.indexOf(states.find((x) => JSON.stringify(x) === JSON.stringify(s))!) < 3 ? solve(s) : `${solve(s)}LR`), { delayMs: 10 }) });
    const oracle = new ScriptedOracle(h.clock, 1000, solve);
    const bounds: BoundEvent[] = [];
    const first = await h.clock.run(runNewMatch(config(['a']), states, h.deps({ oracle, onBound: (e) => bounds.push(e) })));
    expect(first.status).toBe('finished');
    expect(oracle.asked).toEqual(states.slice(3));
    expect(bounds.map((e) => [e.scrambleIndex, e.source])).toEqual([
      [0, 'answer at the bound'],
      [1, 'answer at the bound'],
      [2, 'answer at the bound'],
      [3, 'oracle'],
      [4, 'oracle'],
      [5, 'oracle'],
    ]);
    // The same scrambles again, in the same database: every optimum comes from the cache, at once.
    const again = harness({ a: () => replyWith((s) => `${solve(s)}LR`, { delayMs: 10 }) }, h.store);
    const second = new ScriptedOracle(again.clock, 1000, solve);
    const later: BoundEvent[] = [];
    const run = await again.clock.run(runNewMatch(config(['a']), states, again.deps({ oracle: second, onBound: (e) => later.push(e) })));
    expect(second.asked).toEqual([]);
    expect(later.every((e) => e.exact && e.source === 'cache')).toBe(true);
    expect(again.clock.now()).toBe(60);
    const rows = await h.store.listSummaries(run.match.id);
    expect(rows.every((r) => r.bound.optimal === solve(states[r.scrambleIndex]).length)).toBe(true);
  });

  it('runMatch - every timed solve holds the oracle, and each hold is released when its answer is in', async () => {
    const h = harness({ a: answers, b: () => silent });
    const oracle = new ScriptedOracle(h.clock, 10, solve);
    await h.clock.run(runNewMatch(config(['a', 'b']), states, h.deps({ oracle })));
    // Six solves each (b times out on every one and is restarted), every one of them held and released.
    expect(oracle.holds).toBe(12);
    expect(oracle.open).toBe(0);
  });

  it('runMatch - an abort closes the oracle; what it had not answered stays pending and a resume asks again', async () => {
    const h = harness({ a: () => replyWith(solve, { delayMs: 1500 }) });
    const oracle = new ScriptedOracle(h.clock, 1000, solve);
    const stop = new AbortController();
    const first = runNewMatch(config(['a']), states, h.deps({ oracle, signal: stop.signal }));
    // The bot times out on each scramble (at t = 1000, 2000, ...), so the oracle gets scramble 0 at t = 1000,
    // answers it at 2000 and is on scramble 1 when the abort comes.
    await h.clock.advance(2500);
    stop.abort();
    const run = await h.clock.run(first);
    expect(run.status).toBe('interrupted');
    expect(oracle.closed).toBe(true);
    expect(oracle.asked).toEqual(states.slice(0, 2));
    const notes = (await h.store.listScrambles(run.match.id)).map((s) => s.boundNote);
    expect(notes).toEqual([undefined, ORACLE_PENDING, ORACLE_PENDING, ORACLE_PENDING, ORACLE_PENDING, ORACLE_PENDING]);
    const again = harness({ a: answers }, h.store);
    const second = new ScriptedOracle(again.clock, 10, solve);
    const resumed = await again.clock.run(runResumedMatch(run.match.id, again.deps({ oracle: second })));
    expect(resumed.ok && resumed.value.status).toBe('finished');
    // Scramble 1 was played (a time-out) before the abort: asked again. The rest are answered at the bound now.
    expect(second.asked).toEqual([states[1]]);
    expect((await h.store.listScrambles(run.match.id)).every((s) => s.boundNote === undefined && s.bound.optimal !== undefined)).toBe(true);
  });

});
