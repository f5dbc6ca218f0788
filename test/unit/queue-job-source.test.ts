import { describe, expect, it } from 'vitest';
import type { MatchConfig } from '../../src/referee/match-config.ts';
import { QueueDecider } from '../../src/referee/decide/queue-decider.ts';
import { QueueJobSource, type SourceEvent } from '../../src/referee/queue-job-source.ts';
import { ORACLE_PENDING } from '../../src/referee/refine-bounds.ts';
import { storedSprt } from '../../src/referee/sprt-watch.ts';
import type { OptimumOracle } from '../../src/solvers/oracle.ts';
import { createMemoryStore } from '../../src/store/memory/memory-store.ts';
import { createMemoryWorkQueue } from '../../src/store/memory/memory-work-queue.ts';
import { distinctBoards } from '../helpers/boards.ts';

// The distributed job source on the in-memory queue: what a worker does after each job (the SPRT decides
// as a local match's does; oracle jobs are settled by the same refiner), without a database server.

/** 30 distinct 3×3 boards. */
const boards = distinctBoards(30);

function config(bots: string[], o: Partial<MatchConfig> = {}): MatchConfig {
  return { bots, count: boards.length, seed: 'unit', timeLimitMs: 1000, maxMoves: 100, concurrency: 1, ...o };
}

async function setUp(cfg: MatchConfig, boundNote?: string) {
  const store = createMemoryStore();
  const queue = createMemoryWorkQueue(store);
  const match = await store.createMatch({
    config: cfg,
    seed: cfg.seed,
    generatorVersion: 'g',
    bots: cfg.bots,
    scrambles: boards.slice(0, cfg.count).map((b, index) => ({ index, state: b.state, puzzleClass: 'sliding 3x3', bound: { lowerBound: 0 }, ...(boundNote ? { boundNote } : {}) })),
  });
  const scrambles = await store.listScrambles(match.id);
  const workerId = await queue.registerWorker({ name: 'w', host: 'h', cpu: 'c', pid: 1, concurrency: 1 });
  const events: SourceEvent[] = [];
  const signal = new AbortController();
  const source = (oracle?: OptimumOracle) =>
    new QueueJobSource({ queue, store, workerId: () => workerId, workerName: 'w', signal: signal.signal, maxPollMs: 20, onEvent: (e) => events.push(e), ...(oracle ? { oracle } : {}) });
  return { store, queue, match, scrambles, events, signal, source };
}

/** An oracle that knows every board's optimum at once; records which board it was asked about, and with what known length. */
function boardOracle() {
  const asked: Array<{ index: number; known?: number }> = [];
  const oracle: OptimumOracle = {
    covers: () => true,
    async improve(state, _bound, known) {
      const index = boards.findIndex((b) => JSON.stringify(b.state) === JSON.stringify(state));
      asked.push({ index, known });
      const n = boards[index]!.solution.length;
      return { bound: { optimal: n, lowerBound: n }, ms: 0 };
    },
    async close() {},
  };
  return { oracle, asked };
}

/** Records `bot`'s answer to a board: a two moves over the optimum, b four (so a wins, and never at the bound). */
async function answer(store: Awaited<ReturnType<typeof setUp>>['store'], scramble: { id: number; index: number }, bot: 'a' | 'b'): Promise<void> {
  const moves = boards[scramble.index]!.solution + (bot === 'a' ? 'LR' : 'LRLR');
  await store.recordResult({ scrambleId: scramble.id, bot, verdict: 'solved', moveCount: moves.length, moves, wallMs: 1 });
}

/** A worker with {@link boardOracle} takes the match's jobs until it is finished, then stops; what it asked. */
async function workUntilFinished(set: Awaited<ReturnType<typeof setUp>>) {
  const { oracle, asked } = boardOracle();
  const waiting = set.source(oracle).next();
  await untilFinished(set.store, set.match.id);
  set.signal.abort();
  expect(await waiting).toBeUndefined();
  expect((await set.store.getMatch(set.match.id))!.status).toBe('finished');
  return asked;
}

/** Waits (up to 3 s) for the match to be finished. */
async function untilFinished(store: { getMatch(id: number): Promise<{ status: string } | undefined> }, matchId: number): Promise<void> {
  for (let i = 0; i < 300 && (await store.getMatch(matchId))!.status !== 'finished'; i++) await new Promise((r) => setTimeout(r, 10));
}

describe('queue job source - deciding and settling on a worker', () => {
  it('queue job source - a decided SPRT withdraws the plays still waiting; a result played meanwhile is kept, not counted; then the match finishes', async () => {
    const cfg = config(['a', 'b'], { sprt: { elo0: 0, elo1: 50, alpha: 0.05, beta: 0.05, model: 'normalized' } });
    const { store, queue, match, scrambles, events, signal, source: make } = await setUp(cfg);
    // One scramble per job, scramble by scramble, as a batch of 1 would queue them.
    await queue.enqueue(match.id, scrambles.flatMap((s) => ['a', 'b'].map((bot) => ({ bot, scrambleIds: [s.id] }))), { leaseSeconds: 60 });
    const source = make();
    // `a` always wins (fewer moves): H1 after 23 scrambles, as tallied locally.
    const play = async (job: { bot: string; scrambles: readonly { id: number }[] }) => {
      for (const s of job.scrambles) {
        await store.recordResult({ scrambleId: s.id, bot: job.bot, verdict: 'solved', moveCount: job.bot === 'a' ? 2 : 4, moves: job.bot === 'a' ? 'LU' : 'LURL', wallMs: 1 });
      }
    };
    let late: Awaited<ReturnType<typeof source.next>>;
    while (!events.some((e) => e.type === 'decided')) {
      const job = (await source.next())!;
      // The next job is taken while the deciding scramble is still open: a play in flight when the test decides.
      if (job.scrambles[0]!.index === 22 && job.bot === 'b') late = await source.next();
      await play(job);
      await source.end(job, 'complete');
    }
    expect([late!.scrambles[0]!.index, late!.bot]).toEqual([23, 'a']);
    // Its match no longer wants the rest of a batch (a player asks between scrambles).
    expect(await source.wanted(late!)).toBe(false);
    // Decided, not finished: the play in flight is still held.
    expect((await store.getMatch(match.id))!.status).toBe('running');
    await play(late!);
    await source.end(late!, 'complete');
    // The plays still waiting are withdrawn as they come up: none is handed to a player, and the match finishes.
    const more = source.next();
    await untilFinished(store, match.id);
    signal.abort();
    expect(await more).toBeUndefined();
    const sprt = storedSprt(cfg, await store.listSummaries(match.id))!;
    expect(sprt).toMatchObject({ decision: 'H1', scrambles: 23, wdl: { wins: 23, draws: 0, losses: 0 } });
    expect(events.filter((e) => e.type === 'decided')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'finished')).toHaveLength(1);
    expect((await store.getMatch(match.id))!.status).toBe('finished');
    // The late result is stored, nothing after it was played, and nothing else waits on the queue.
    const rows = await store.listSummaries(match.id);
    expect(rows).toHaveLength(2 * 23 + 1);
    expect(rows.some((r) => r.scrambleId === late!.scrambles[0]!.id && r.bot === 'a')).toBe(true);
    expect(await queue.matchJobs(match.id, { deadAfterSeconds: 30 })).toMatchObject({ queued: 0, active: 0 });
  });

  it('queue job source - oracle jobs are settled here by the refiner, once each, and the match then finishes', async () => {
    const cfg = config(['a'], { count: 3 });
    const { store, queue, match, scrambles, events, signal, source: make } = await setUp(cfg, ORACLE_PENDING);
    for (const [i, s] of scrambles.entries()) {
      await store.recordResult({ scrambleId: s.id, bot: 'a', verdict: 'solved', moveCount: boards[i]!.solution.length, moves: boards[i]!.solution, wallMs: 1 });
    }
    await queue.enqueue(match.id, scrambles.map((s) => ({ task: 'optima' as const, scrambleIds: [s.id] })), { leaseSeconds: 60 });
    const asked: Array<number | undefined> = [];
    const oracle: OptimumOracle = {
      covers: () => true,
      async improve(_state, _bound, known) {
        asked.push(known);
        return { bound: { optimal: known!, lowerBound: known! }, ms: 0 };
      },
      async close() {},
    };
    const source = make(oracle);
    const waiting = source.next();
    for (let i = 0; i < 200 && (await store.getMatch(match.id))!.status !== 'finished'; i++) await new Promise((r) => setTimeout(r, 10));
    signal.abort();
    expect(await waiting).toBeUndefined();
    // Each asked once, with the bot's answer as the known length; stored exact, and cached.
    expect(asked).toEqual(boards.slice(0, 3).map((b) => b.solution.length));
    const after = await store.listScrambles(match.id);
    expect(after.map((s) => s.bound.optimal)).toEqual(boards.slice(0, 3).map((b) => b.solution.length));
    expect(events.filter((e) => e.type === 'optima')).toHaveLength(3);
    expect((await store.getMatch(match.id))!.status).toBe('finished');
  });

  it('queue job source - a decided match has its oracle jobs of played scrambles proved, of unplayed ones withdrawn unasked, and then finishes', async () => {
    const cfg = config(['a', 'b'], { sprt: { elo0: 0, elo1: 50, alpha: 0.05, beta: 0.05, model: 'normalized' } });
    const set = await setUp(cfg, ORACLE_PENDING);
    const { store, queue, match, scrambles, events } = set;
    // a wins the first 23 scrambles by two moves (H1 there, as above); the oracle job of every scramble waits.
    for (const s of scrambles.slice(0, 23)) for (const bot of ['a', 'b'] as const) await answer(store, s, bot);
    await queue.enqueue(match.id, scrambles.map((s) => ({ task: 'optima' as const, scrambleIds: [s.id] })), { leaseSeconds: 60 });
    const asked = await workUntilFinished(set);
    expect(events.filter((e) => e.type === 'decided')).toHaveLength(1);
    // Each played scramble asked once, in order, with a's answer as the known length; no unplayed one asked.
    expect(asked).toEqual(boards.slice(0, 23).map((b, index) => ({ index, known: b.solution.length + 2 })));
    const after = await store.listScrambles(match.id);
    expect(after.slice(0, 23).map((s) => [s.bound.optimal, s.boundNote])).toEqual(boards.slice(0, 23).map((b) => [b.solution.length, undefined]));
    expect(after.slice(23).every((s) => s.bound.optimal === undefined && s.boundNote === ORACLE_PENDING)).toBe(true);
    expect(await queue.matchJobs(match.id, { deadAfterSeconds: 30 })).toMatchObject({ queued: 0, active: 0 });
  });

  it('queue decider - a decided match with nothing left on the queue still has the optimum of every scramble it played proved (one played late included) before it finishes', async () => {
    const cfg = config(['a', 'b'], { sprt: { elo0: 0, elo1: 50, alpha: 0.05, beta: 0.05, model: 'normalized' } });
    const set = await setUp(cfg, ORACLE_PENDING);
    const { store, queue, match, scrambles } = set;
    for (const s of scrambles.slice(0, 23)) for (const bot of ['a', 'b'] as const) await answer(store, s, bot);
    // Played after the decision (a play in flight then); no oracle job of any scramble is left on the queue.
    await answer(store, scrambles[23]!, 'a');
    await queue.enqueue(match.id, [{ bot: 'a', scrambleIds: [scrambles[24]!.id] }], { leaseSeconds: 60 });
    const decider = new QueueDecider({ queue, store });
    // A play still waits: not finished, and nothing else queued yet.
    expect(await decider.afterJob(match.id, cfg)).toEqual([{ type: 'decided', matchId: match.id, sprt: expect.objectContaining({ decision: 'H1', scrambles: 23 }) }]);
    expect((await queue.matchJobs(match.id, { deadAfterSeconds: 30 }))!.queued).toBe(1);
    // The waiting play is withdrawn unplayed, never handed out.
    const asked = await workUntilFinished(set);
    expect((await store.listSummaries(match.id)).some((r) => r.scrambleId === scrambles[24]!.id)).toBe(false);
    expect(asked.map((a) => a.index)).toEqual(Array.from({ length: 24 }, (_, i) => i));
    const after = await store.listScrambles(match.id);
    expect(after.slice(0, 24).every((s, i) => s.bound.optimal === boards[i]!.solution.length && s.boundNote === undefined)).toBe(true);
    expect(after.slice(24).every((s) => s.boundNote === ORACLE_PENDING)).toBe(true);
  });

  it('queue job source - an oracle job is settled beside the players: a play is handed out while a proof runs', async () => {
    const cfg = config(['a'], { count: 2 });
    const { store, queue, match, scrambles, events, signal, source: make } = await setUp(cfg, ORACLE_PENDING);
    const solution = boards[0]!.solution;
    await store.recordResult({ scrambleId: scrambles[0]!.id, bot: 'a', verdict: 'solved', moveCount: solution.length, moves: solution, wallMs: 1 });
    await queue.enqueue(match.id, [{ task: 'optima', scrambleIds: [scrambles[0]!.id] }], { leaseSeconds: 60 });
    let answer: (n: number) => void = () => undefined;
    const oracle: OptimumOracle = {
      covers: () => true,
      improve: () => new Promise((resolve) => (answer = (n) => resolve({ bound: { optimal: n, lowerBound: n }, ms: 0 }))),
      async close() {},
    };
    const source = make(oracle);
    const next = source.next();
    // The proof has started and is waiting for the oracle; meanwhile a play is queued and handed out.
    for (let i = 0; i < 200 && !events.some((e) => e.type === 'took'); i++) await new Promise((r) => setTimeout(r, 5));
    await queue.enqueue(match.id, [{ bot: 'a', scrambleIds: [scrambles[1]!.id] }], { leaseSeconds: 60 });
    const job = (await next)!;
    expect(job.scrambles.map((s) => s.id)).toEqual([scrambles[1]!.id]);
    expect(events.some((e) => e.type === 'optima')).toBe(false);
    answer(solution.length);
    const s1 = boards[1]!.solution;
    await store.recordResult({ scrambleId: scrambles[1]!.id, bot: 'a', verdict: 'solved', moveCount: s1.length, moves: s1, wallMs: 1 });
    await source.end(job, 'complete');
    const waiting = source.next();
    await untilFinished(store, match.id);
    signal.abort();
    expect(await waiting).toBeUndefined();
    expect((await store.getMatch(match.id))!.status).toBe('finished');
    expect((await store.listScrambles(match.id))[0]!.bound.optimal).toBe(solution.length);
  });

  it('queue job source - a worker that stops while it settles an oracle job hands the job back before next() returns', async () => {
    const cfg = config(['a'], { count: 1 });
    const { queue, match, scrambles, events, signal, source: make } = await setUp(cfg, ORACLE_PENDING);
    await queue.enqueue(match.id, [{ task: 'optima', scrambleIds: [scrambles[0]!.id] }], { leaseSeconds: 60 });
    let cut: (() => void) | undefined;
    const oracle: OptimumOracle = {
      covers: () => true,
      improve: (_state, bound) => new Promise((resolve) => (cut = () => resolve({ bound, interrupted: true, ms: 0 }))),
      async close() {
        cut?.();
      },
    };
    const waiting = make(oracle).next();
    for (let i = 0; i < 200 && !cut; i++) await new Promise((r) => setTimeout(r, 5));
    expect(cut).toBeDefined();
    // The worker stops: its oracle is closed (as worker-session does), and the proof ends interrupted.
    signal.abort();
    void oracle.close();
    expect(await waiting).toBeUndefined();
    expect(events.map((e) => e.type)).toContain('handed-back');
    expect(await queue.matchJobs(match.id, { deadAfterSeconds: 30 })).toMatchObject({ queued: 1, active: 0 });
  });

  it('queue job source - a worker without an oracle leaves oracle jobs to others', async () => {
    const cfg = config(['a'], { count: 1 });
    const { queue, match, scrambles, signal, source: make } = await setUp(cfg, ORACLE_PENDING);
    await queue.enqueue(match.id, [{ task: 'optima', scrambleIds: [scrambles[0]!.id] }], { leaseSeconds: 60 });
    const waiting = make().next();
    await new Promise((r) => setTimeout(r, 60));
    signal.abort();
    expect(await waiting).toBeUndefined();
    expect(await queue.matchJobs(match.id, { deadAfterSeconds: 30 })).toMatchObject({ queued: 1, active: 0 });
  });
});
