import { describe, expect, it } from 'vitest';
import type { PuzzleState } from '../../src/core/types.ts';
import type { MatchConfig } from '../../src/referee/match-config.ts';
import { resumeMatch, startGeneratedMatch, startMatch, type MatchDeps, type ResultEvent } from '../../src/referee/run-match.ts';
import { checkScrambleSize, scrambleBytes } from '../../src/referee/scramble-batches.ts';
import { generateScrambles } from '../../src/referee/scrambles.ts';
import { ORACLE_PENDING, stateKey, type BoundEvent } from '../../src/referee/refine-bounds.ts';
import type { OptimumOracle, OracleResult } from '../../src/solvers/oracle.ts';
import { createMemoryStore } from '../../src/store/memory-store.ts';
import type { Store } from '../../src/store/types.ts';
import { slidingBoard } from '../helpers/boards.ts';
import { FakeClock } from '../helpers/fake-clock.ts';
import { dropOnSolve, giveUp, replyWith, ScriptedLauncher, silent, type ConnectPlan } from '../helpers/scripted-link.ts';

// Whole matches in-process: memory store, scripted bots, fake clock. No process starts and no real time
// passes, so time-outs of seconds and aborts at an exact moment are cheap and deterministic.

const boards = ['LU', 'LLUR', 'ULDR', 'LLUURD', 'UULDRD', 'LURDLU'].map((p) => slidingBoard(3, 3, p));
const states: PuzzleState[] = boards.map((b) => b.state);
/** The known solution of any of the boards above. */
const solve = (s: PuzzleState) => boards.find((b) => b.state === s || JSON.stringify(b.state) === JSON.stringify(s))!.solution;

function config(bots: string[], o: Partial<MatchConfig> = {}): MatchConfig {
  return { bots, count: states.length, seed: 'unit', timeLimitMs: 1000, maxMoves: 100, concurrency: 1, ...o };
}

/** Deps whose launchers follow `plans[bot]`; every launcher made is kept for inspection. */
function harness(plans: Record<string, (attempt: number) => ConnectPlan>, store: Store = createMemoryStore()) {
  const clock = new FakeClock();
  const launchers: ScriptedLauncher[] = [];
  const events: ResultEvent[] = [];
  const deps = (extra: Partial<MatchDeps> = {}): MatchDeps => ({
    store,
    clock,
    makeLauncher: (bot) => {
      const l = new ScriptedLauncher(bot, plans[bot], { clock });
      launchers.push(l);
      return l;
    },
    onResult: (e) => events.push(e),
    ...extra,
  });
  return { clock, store, launchers, events, deps };
}

const answers = () => replyWith(solve, { delayMs: 10 });

/**
 * An oracle on the fake clock: answers one request at a time, `delayMs` each, in order, with the known
 * solution's length as the optimum, except for the states `stuck` names, which keep their bound with a note.
 */
class ScriptedOracle implements OptimumOracle {
  asked: PuzzleState[] = [];
  /** The known answer length each request came with. */
  known: Array<number | undefined> = [];
  closed = false;
  /** Holds taken, and holds not yet released. */
  holds = 0;
  open = 0;
  private queue: Promise<void> = Promise.resolve();
  private readonly waiting = new Set<(r: OracleResult) => void>();
  constructor(
    private readonly clock: FakeClock,
    private readonly delayMs: number,
    private readonly stuck: (s: PuzzleState) => boolean = () => false,
  ) {}
  covers(): boolean {
    return true;
  }
  hold(): () => void {
    this.holds++;
    this.open++;
    return () => void this.open--;
  }
  improve(state: PuzzleState, bound: { lowerBound: number; optimal?: number }, known?: number): Promise<OracleResult> {
    this.asked.push(state);
    this.known.push(known);
    return new Promise((resolve) => {
      this.waiting.add(resolve);
      this.queue = this.queue.then(
        () =>
          new Promise<void>((next) =>
            this.clock.setTimer(this.delayMs, () => {
              if (this.waiting.delete(resolve)) {
                const n = solve(state).length;
                resolve(this.stuck(state) ? { bound: { lowerBound: bound.lowerBound }, note: 'budget spent', ms: this.delayMs } : { bound: { optimal: n, lowerBound: n }, ms: this.delayMs });
              }
              next();
            }),
          ),
      );
    });
  }
  async close(): Promise<void> {
    this.closed = true;
    for (const resolve of this.waiting) resolve({ bound: { lowerBound: 0 }, interrupted: true, ms: 0 });
    this.waiting.clear();
  }
}

describe('runMatch in-process', () => {
  it('runMatch - every (scramble, bot) gets exactly one result; which bot goes first rotates per scramble', async () => {
    const h = harness({ a: answers, b: answers });
    const run = await h.clock.run(startMatch(config(['a', 'b']), states, h.deps()));
    expect(run.status).toBe('finished');
    const rows = await h.store.listResults(run.match.id);
    expect(rows).toHaveLength(2 * states.length);
    expect(new Set(rows.map((r) => `${r.scrambleIndex}/${r.bot}`)).size).toBe(rows.length);
    expect(rows.every((r) => r.verdict === 'solved' && r.wallMs === 10)).toBe(true);
    expect(h.events.map((e) => `${e.scrambleIndex}${e.bot}`)).toEqual(['0a', '0b', '1b', '1a', '2a', '2b', '3b', '3a', '4a', '4b', '5b', '5a']);
    expect(h.events.map((e) => e.done)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    // One bot process each for the whole match, told bye at the end.
    expect(h.launchers.map((l) => [l.name, l.connects, l.disposed])).toEqual([
      ['a', 1, true],
      ['b', 1, true],
    ]);
    expect(h.launchers.every((l) => l.links[0].closed)).toBe(true);
  });

  it('runMatch - a crashed bot is restarted for its next scramble; the crash is charged to one scramble', async () => {
    const h = harness({ a: (attempt) => (attempt === 0 ? [answers(), dropOnSolve('segfault')] : answers()) });
    const run = await h.clock.run(startMatch(config(['a']), states, h.deps()));
    const rows = await h.store.listResults(run.match.id);
    expect(rows.map((r) => r.verdict)).toEqual(['solved', 'crash', 'solved', 'solved', 'solved', 'solved']);
    expect(rows[1].error).toBe('segfault');
    expect(h.launchers[0].connects).toBe(2);
  });

  it('runMatch - a time-out closes the link and the next scramble gets a fresh bot', async () => {
    const h = harness({ a: (attempt) => (attempt === 0 ? silent : answers()) });
    const run = await h.clock.run(startMatch(config(['a'], { timeLimitMs: 5000 }), states.slice(0, 2), h.deps()));
    const rows = await h.store.listResults(run.match.id);
    expect(rows.map((r) => [r.verdict, r.wallMs])).toEqual([
      ['timeout', 5000],
      ['solved', 10],
    ]);
    const [first, second] = h.launchers[0].links;
    expect(first.closeReason).toBe('timed out');
    expect(first.sent.map((m) => m.type)).toEqual(['solve', 'cancel', 'result', 'bye']);
    expect(second.sentOf('solve')).toHaveLength(1);
  });

  it('runMatch - a bot that cannot start gets crash with the reason', async () => {
    const h = harness({ a: () => ({ fail: 'no such file: ./bot' }) });
    const run = await h.clock.run(startMatch(config(['a']), states.slice(0, 1), h.deps()));
    const [row] = await h.store.listResults(run.match.id);
    expect(row).toMatchObject({ verdict: 'crash', moveCount: 0 });
    expect(row.error).toMatch(/could not start: no such file/);
  });

  it('runMatch - a bot that fails to start twice in a row is not started again: its other scrambles are crash at once', async () => {
    const h = harness({ a: () => ({ fail: 'exec format error' }), b: answers });
    const run = await h.clock.run(startMatch(config(['a', 'b']), states, h.deps()));
    const rows = (await h.store.listResults(run.match.id)).filter((r) => r.bot === 'a');
    expect(rows.map((r) => r.error)).toEqual([
      'could not start: exec format error',
      'could not start: exec format error',
      ...Array(4).fill('not started again: it failed to start 2 times in a row (exec format error)'),
    ]);
    expect(rows.every((r) => r.verdict === 'crash')).toBe(true);
    expect(h.launchers.find((l) => l.name === 'a')!.connects).toBe(2);
    expect(run.blocked).toEqual([{ bot: 'a', reason: 'exec format error', charged: 4 }]);
    // The other bot is untouched by it.
    expect((await h.store.listResults(run.match.id)).filter((r) => r.bot === 'b').every((r) => r.verdict === 'solved')).toBe(true);
  });

  it('runMatch - start failures count only in a row, and the start timeout follows the time limit', async () => {
    const timeouts: number[] = [];
    const plan = (attempt: number): ConnectPlan => (attempt % 2 === 0 ? { fail: 'flaky' } : [answers(), dropOnSolve()]);
    const h = harness({ a: plan });
    const deps = h.deps();
    const run = await h.clock.run(
      startMatch(config(['a'], { timeLimitMs: 45_000 }), states, {
        ...deps,
        makeLauncher: (bot, opts) => {
          timeouts.push(opts.startTimeoutMs);
          return deps.makeLauncher(bot, opts);
        },
      }),
    );
    expect(run.blocked).toEqual([]);
    expect(timeouts).toEqual([90_000]);
    const verdicts = (await h.store.listResults(run.match.id)).map((r) => r.verdict);
    expect(verdicts).toEqual(['crash', 'solved', 'crash', 'crash', 'solved', 'crash']);
  });

  it('runMatch - a declared capability gap is unsupported without a solve being sent', async () => {
    const clock = new FakeClock();
    const store = createMemoryStore();
    const launchers: ScriptedLauncher[] = [];
    const run = await clock.run(
      startMatch(config(['small']), states.slice(0, 1), {
        store,
        clock,
        makeLauncher: (bot) => {
          const l = new ScriptedLauncher(bot, answers, { clock, capabilities: [{ kind: 'sliding', maxSize: 4 }] });
          launchers.push(l);
          return l;
        },
      }),
    );
    const [row] = await store.listResults(run.match.id);
    expect(row.verdict).toBe('unsupported');
    expect(row.error).toMatch(/up to size 4; this scramble has size 9/);
    expect(launchers[0].links[0].sentOf('solve')).toEqual([]);
  });

  it('runMatch - parallel workers each hold their own bots and never play a job twice', async () => {
    const h = harness({ a: answers, b: () => replyWith(solve, { delayMs: 35 }) });
    const run = await h.clock.run(startMatch(config(['a', 'b'], { concurrency: 3 }), states, h.deps()));
    expect(run.status).toBe('finished');
    const rows = await h.store.listResults(run.match.id);
    expect(new Set(rows.map((r) => `${r.scrambleIndex}/${r.bot}`)).size).toBe(12);
    expect(rows).toHaveLength(12);
    // Three workers, each with its own launcher per bot it met: no link carried two requests at once.
    for (const l of h.launchers) for (const link of l.links) expect(link.sentOf('solve').length).toBeGreaterThan(0);
    expect(h.launchers.length).toBeGreaterThanOrEqual(3);
    expect(h.launchers.length).toBeLessThanOrEqual(6);
  });

  it('runMatch - abort mid-match records nothing for the request in flight, and resume plays only what is missing', async () => {
    const h = harness({ a: answers, b: () => replyWith(solve, { delayMs: 400 }) });
    const stop = new AbortController();
    const first = startMatch(config(['a', 'b']), states, h.deps({ signal: stop.signal }));
    // Results land at t = 10 (0a), 410 (0b), 810 (1b), 820 (1a), 830 (2a); abort while 2b is being answered.
    await h.clock.advance(1000);
    stop.abort();
    const run = await h.clock.run(first);
    expect(run.status).toBe('interrupted');
    expect((await h.store.getMatch(run.match.id))?.status).toBe('interrupted');
    const before = await h.store.listResults(run.match.id);
    expect(before.map((r) => `${r.scrambleIndex}${r.bot}`)).toEqual(['0a', '0b', '1b', '1a', '2a']);
    const inFlight = h.launchers.find((l) => l.name === 'b')!.links[0];
    expect(inFlight.sent.map((m) => m.type).slice(-2)).toEqual(['cancel', 'bye']);

    const again = harness({ a: answers, b: answers }, h.store);
    const resumed = await again.clock.run(resumeMatch(run.match.id, again.deps()));
    expect(resumed.ok && resumed.value.status).toBe('finished');
    const after = await h.store.listResults(run.match.id);
    expect(after).toHaveLength(12);
    for (const r of before) expect(after.find((x) => x.scrambleId === r.scrambleId && x.bot === r.bot)).toEqual(r);
    // Only the 7 missing jobs were played, and progress counts on from what was already there.
    const solves = again.launchers.flatMap((l) => l.links.flatMap((link) => link.sentOf('solve')));
    expect(solves).toHaveLength(7);
    expect(again.events.map((e) => e.done)).toEqual([6, 7, 8, 9, 10, 11, 12]);
  });

  it('runMatch - the oracle is asked about a scramble once its plays are in, with the shortest answer; results that came first are scored against the optimum', async () => {
    // Both bots answer two moves longer than the optimum, so no answer settles a scramble by itself.
    const long = (extra: string) => () => replyWith((s) => `${solve(s)}${extra}`, { delayMs: 10 });
    const h = harness({ a: long('LR'), b: long('LRLR') });
    const oracle = new ScriptedOracle(h.clock, 1000, (s) => JSON.stringify(s) === JSON.stringify(states[1]));
    const bounds: BoundEvent[] = [];
    const run = await h.clock.run(startMatch(config(['a', 'b']), states, h.deps({ oracle, onBound: (e) => bounds.push(e) })));
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
    const oracle = new ScriptedOracle(h.clock, 1000);
    const bounds: BoundEvent[] = [];
    const first = await h.clock.run(startMatch(config(['a']), states, h.deps({ oracle, onBound: (e) => bounds.push(e) })));
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
    const second = new ScriptedOracle(again.clock, 1000);
    const later: BoundEvent[] = [];
    const run = await again.clock.run(startMatch(config(['a']), states, again.deps({ oracle: second, onBound: (e) => later.push(e) })));
    expect(second.asked).toEqual([]);
    expect(later.every((e) => e.exact && e.source === 'cache')).toBe(true);
    expect(again.clock.now()).toBe(60);
    const rows = await h.store.listSummaries(run.match.id);
    expect(rows.every((r) => r.bound.optimal === solve(states[r.scrambleIndex]).length)).toBe(true);
  });

  it('runMatch - every timed solve holds the oracle, and each hold is released when its answer is in', async () => {
    const h = harness({ a: answers, b: () => silent });
    const oracle = new ScriptedOracle(h.clock, 10);
    await h.clock.run(startMatch(config(['a', 'b']), states, h.deps({ oracle })));
    // Six solves each (b times out on every one and is restarted), every one of them held and released.
    expect(oracle.holds).toBe(12);
    expect(oracle.open).toBe(0);
  });

  it('runMatch - an abort closes the oracle; what it had not answered stays pending and a resume asks again', async () => {
    const h = harness({ a: () => replyWith(solve, { delayMs: 1000 }) });
    const oracle = new ScriptedOracle(h.clock, 1000);
    const stop = new AbortController();
    const first = startMatch(config(['a']), states, h.deps({ oracle, signal: stop.signal }));
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
    const second = new ScriptedOracle(again.clock, 10);
    const resumed = await again.clock.run(resumeMatch(run.match.id, again.deps({ oracle: second })));
    expect(resumed.ok && resumed.value.status).toBe('finished');
    // Scramble 1 was played (a time-out) before the abort: asked again. The rest are answered at the bound now.
    expect(second.asked).toEqual([states[1]]);
    expect((await h.store.listScrambles(run.match.id)).every((s) => s.boundNote === undefined && s.bound.optimal !== undefined)).toBe(true);
  });

  it('resumeMatch - unknown, finished and scramble-less matches are clear rejections', async () => {
    const h = harness({ a: answers });
    expect(await resumeMatch(99, h.deps())).toMatchObject({ ok: false, reason: 'no match with id 99' });
    const run = await h.clock.run(startMatch(config(['a']), states.slice(0, 1), h.deps()));
    expect(await resumeMatch(run.match.id, h.deps())).toMatchObject({ ok: false, reason: `match ${run.match.id} is already finished` });

    // A match stored without scrambles (only an older version killed mid-creation could leave one).
    const legacy = new Proxy(h.store, {
      get: (target, key) => (key === 'listScrambles' ? async () => [] : Reflect.get(target, key, target)),
    });
    await h.store.setMatchStatus(run.match.id, 'interrupted');
    const r = await resumeMatch(run.match.id, { ...h.deps(), store: legacy });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toMatch(/has no scrambles/);
  });

  it('startGeneratedMatch - stores scrambles batch by batch as play reaches them, the same ones as all at once', async () => {
    const spec = { kind: 'sliding', rows: 3, cols: 3 } as const;
    const cfg = { ...config(['a']), spec, count: 7, seed: 'batches' };
    const all = generateScrambles(spec, 7, 'batches');
    if (!all.ok) throw new Error(all.reason);
    const batchBytes = 3 * scrambleBytes(all.value[0]) + 2; // three 3x3 boards per batch
    // A bot that gives up after 10 ms, so that each play takes time, as a real one does.
    const h = harness({ a: () => (req, bot) => bot.send({ type: 'give-up', id: req.id, reason: 'too hard' }, 10) });
    const storedAt: number[] = [];
    const stop = new AbortController();
    const deps = h.deps({
      scrambleBatchBytes: batchBytes,
      signal: stop.signal,
      onResult: (e) => {
        h.events.push(e);
        if (e.done === 4) stop.abort();
      },
    });
    const first = await h.clock.run(startGeneratedMatch(cfg, { ...deps, store: watch(h.store, storedAt) }));
    if (!first.ok) throw new Error(first.reason);
    expect(first.value.status).toBe('interrupted');
    // Scrambles stored when each result was committed (just after the next play began): the second batch
    // only once play reached it.
    expect(storedAt).toEqual([3, 3, 6, 6]);
    const resumed = await h.clock.run(resumeMatch(first.value.match.id, { ...h.deps({ scrambleBatchBytes: batchBytes }), store: watch(h.store, storedAt) }));
    expect(resumed.ok && resumed.value.status).toBe('finished');
    expect(storedAt.slice(4)).toEqual([6, 7, 7]);
    const stored = await h.store.listScrambles(first.value.match.id);
    expect(stored.map((x) => x.state)).toEqual(all.value);
    expect(await h.store.listResults(first.value.match.id)).toHaveLength(7);
  });

  it('checkScrambleSize - refuses a scramble bigger than a bot must accept, with both numbers', () => {
    const big = { kind: 'swaps', rows: 300, cols: 300, tiles: Array.from({ length: 90_000 }, (_, i) => i + 1) } as const;
    expect(checkScrambleSize(big).ok).toBe(true);
    expect(checkScrambleSize(big, 100_000)).toMatchObject({ ok: false, reason: expect.stringMatching(/swaps 300x300 scramble is 0\.5 MiB of JSON; a scramble may be at most 0\.1 MiB/) });
  });
});

/** A store that notes how many scrambles match 1 (the harness's only match) holds each time a result is recorded. */
function watch(store: Store, counts: number[]): Store {
  return new Proxy(store, {
    get(target, key) {
      if (key !== 'recordResult') return Reflect.get(target, key, target);
      return async (r: Parameters<Store['recordResult']>[0]) => {
        await target.recordResult(r);
        counts.push((await target.listScrambles(1)).length);
      };
    },
  });
}
