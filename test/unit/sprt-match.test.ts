import { describe, expect, it } from 'vitest';
import type { PuzzleState } from '../../src/core/types.ts';
import type { MatchConfig } from '../../src/referee/match-config.ts';
import { parseMatchConfig } from '../../src/referee/match-config.ts';
import { runResumedMatch, runNewMatch, type MatchDeps, type ResultEvent } from '../../src/referee/run-match.ts';
import { sprtLlr, type SprtParams } from '../../src/stats/sprt.ts';
import { createMemoryStore } from '../../src/store/memory/memory-store.ts';
import type { Store } from '../../src/store/types.ts';
import { slidingBoard } from '../helpers/boards.ts';
import { FakeClock } from '../helpers/fake-clock.ts';
import { replyWith, ScriptedLauncher, type ConnectPlan } from '../helpers/scripted-link.ts';

// A match with an SPRT, in-process (memory store, scripted bots, fake clock): bot a answers every scramble
// optimally, bot b with two extra moves (a blank step out and back at the end), so a wins every scramble.
const boards = ['LU', 'LLUR', 'ULDR', 'LLUURD', 'UULDRD', 'LURDLU'].map((p) => slidingBoard(3, 3, p));
const states: PuzzleState[] = Array.from({ length: 40 }, (_, i) => boards[i % boards.length].state);
const solve = (s: PuzzleState) => boards.find((b) => JSON.stringify(b.state) === JSON.stringify(s))!.solution;
const sprt: SprtParams = { elo0: 0, elo1: 200, alpha: 0.05, beta: 0.05, model: 'normalized' };
/** Scrambles the test needs when a wins them all: the first k with LLR(k-0-0) ≥ ln 19. */
const K = (() => {
  let k = 1;
  while (sprtLlr({ wins: k, draws: 0, losses: 0 }, sprt) < Math.log(19)) k++;
  return k;
})();

function config(o: Partial<MatchConfig> = {}): MatchConfig {
  return { bots: ['a', 'b'], count: states.length, seed: 'unit', timeLimitMs: 1000, maxMoves: 100, concurrency: 1, sprt, ...o };
}

function harness(store: Store = createMemoryStore()) {
  const clock = new FakeClock();
  const events: ResultEvent[] = [];
  const plans: Record<string, () => ConnectPlan> = {
    a: () => replyWith(solve, { delayMs: 10 }),
    b: () => replyWith((s) => `${solve(s)}LR`, { delayMs: 10 }),
  };
  const deps = (extra: Partial<MatchDeps> = {}): MatchDeps => ({
    store,
    clock,
    makeLauncher: (bot) => new ScriptedLauncher(bot, plans[bot], { clock }),
    onResult: (e) => events.push(e),
    ...extra,
  });
  return { clock, store, events, deps };
}

describe('runMatch with an SPRT', () => {
  it('runMatch - stops handing out scrambles once the test accepts H1, and the match is finished', async () => {
    expect(K).toBeLessThan(20);
    const h = harness();
    const run = await h.clock.run(runNewMatch(config(), states, h.deps()));
    expect(run.status).toBe('finished');
    expect(run.sprt).toMatchObject({ decision: 'H1', scrambles: K, wdl: { wins: K, draws: 0, losses: 0 } });
    const rows = await h.store.listResults(run.match.id);
    expect(rows).toHaveLength(2 * K);
    // Every event carries the test's state; it decides on the last one.
    expect(h.events.every((e) => e.sprt !== undefined)).toBe(true);
    expect(h.events.at(-1)!.sprt!.decision).toBe('H1');
    expect(h.events.at(-2)!.sprt!.decision).toBe(null);
  });

  it('runMatch - aborted part-way and resumed, it continues where it stopped and decides at the same scramble', async () => {
    const h = harness();
    const stop = new AbortController();
    const first = runNewMatch(config(), states, h.deps({ signal: stop.signal }));
    await h.clock.advance(45); // about two scrambles
    stop.abort();
    const run = await h.clock.run(first);
    expect(run.status).toBe('interrupted');
    expect(run.sprt!.decision).toBe(null);
    const before = await h.store.listResults(run.match.id);

    const again = harness(h.store);
    const resumed = await again.clock.run(runResumedMatch(run.match.id, again.deps()));
    expect(resumed.ok && resumed.value.status).toBe('finished');
    expect(resumed.ok && resumed.value.sprt).toMatchObject({ decision: 'H1', scrambles: K });
    const after = await h.store.listResults(run.match.id);
    expect(after).toHaveLength(2 * K);
    expect(new Set(after.map((r) => `${r.scrambleIndex}/${r.bot}`)).size).toBe(after.length);
    for (const r of before) expect(after.find((x) => x.scrambleId === r.scrambleId && x.bot === r.bot)).toEqual(r);
    // Resuming a match whose test has decided plays nothing more (it is finished).
    expect((await h.store.getMatch(run.match.id))!.status).toBe('finished');
  });

  it('match config - an SPRT needs exactly two bots and a valid design', () => {
    expect(parseMatchConfig(config()).ok).toBe(true);
    const three = parseMatchConfig(config({ bots: ['a', 'b', 'c'] }));
    expect(!three.ok && three.reason).toMatch(/exactly two bots/);
    const bad = parseMatchConfig(config({ sprt: { ...sprt, elo1: -5 } }));
    expect(!bad.ok && bad.reason).toMatch(/elo0 must be below elo1/);
  });
});
