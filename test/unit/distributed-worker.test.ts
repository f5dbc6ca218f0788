import { describe, expect, it } from 'vitest';
import type { PuzzleState } from '../../src/core/types.ts';
import { batchSize, cutJobs, leaseSeconds, stalledBecause } from '../../src/app/matches/distributed.ts';
import type { Job, JobEnd, JobSource } from '../../src/referee/job-source.ts';
import { planPlays } from '../../src/referee/plan.ts';
import { StartGuard } from '../../src/referee/start-guard.ts';
import { runPlayer } from '../../src/referee/player.ts';
import { createMemoryStore } from '../../src/store/memory/memory-store.ts';
import type { MatchRecord, ScrambleRecord } from '../../src/store/types.ts';
import type { MatchJobs } from '../../src/store/work-queue.ts';
import { slidingBoard } from '../helpers/boards.ts';
import { FakeClock } from '../helpers/fake-clock.ts';
import { replyWith, ScriptedLauncher, type ConnectPlan } from '../helpers/scripted-link.ts';

const boards = ['LU', 'LLUR', 'ULDR'].map((p) => slidingBoard(3, 3, p));
const solve = (s: PuzzleState) => boards.find((b) => JSON.stringify(b.state) === JSON.stringify(s))!.solution;

/** A list source that records how each job ended. */
function listSource(jobs: Job[]): JobSource & { ends: Array<[string, JobEnd, string | undefined]> } {
  const queue = [...jobs];
  const ends: Array<[string, JobEnd, string | undefined]> = [];
  return {
    ends,
    async next() {
      return queue.shift();
    },
    async end(job, how, reason) {
      ends.push([job.bot, how, reason]);
    },
  };
}

async function setup() {
  const store = createMemoryStore();
  const m = await store.createMatch({
    config: null,
    seed: 's',
    generatorVersion: 'g',
    bots: ['ok', 'missing'],
    scrambles: boards.map((b, index) => ({ index, state: b.state, puzzleClass: 'sliding 3x3', bound: { lowerBound: 1 } })),
  });
  const scrambles = await store.listScrambles(m.id);
  const limits = { timeLimitMs: 1000, maxMoves: 100, startTimeoutMs: 1000 };
  const job = (bot: string): Job => ({ matchId: m.id, bot, scrambles, limits });
  return { store, m, job };
}

describe('referee player - start failures on a distributed worker', () => {
  const plans: Record<string, ConnectPlan> = { ok: replyWith(solve), missing: { fail: 'spawn ENOENT ./missing' } };

  it('referee player - refuse mode: a bot that cannot start ends its job refused, with the reason, and records nothing', async () => {
    const { store, m, job } = await setup();
    const clock = new FakeClock();
    const source = listSource([job('missing'), job('ok')]);
    await clock.run(
      runPlayer(source, {
        store,
        clock,
        makeLauncher: (bot) => new ScriptedLauncher(bot, () => plans[bot], { clock }),
        starts: new StartGuard(),
        onStartFailure: 'refuse',
      }),
    );
    expect(source.ends).toEqual([
      ['missing', 'refused', 'spawn ENOENT ./missing'],
      ['ok', 'complete', undefined],
    ]);
    const rows = await store.listResults(m.id);
    expect(rows.map((r) => [r.bot, r.verdict])).toEqual([
      ['ok', 'solved'],
      ['ok', 'solved'],
      ['ok', 'solved'],
    ]);
  });

  it('referee player - refuse mode still charges a hello that breaks the protocol (the bot\'s fault on any machine)', async () => {
    const { store, m, job } = await setup();
    const clock = new FakeClock();
    const source = listSource([job('bad')]);
    const bad: ConnectPlan = { fail: 'hello: unknown field "x"', code: 'protocol' };
    await clock.run(runPlayer(source, { store, clock, makeLauncher: (bot) => new ScriptedLauncher(bot, () => bad, { clock }), starts: new StartGuard(), onStartFailure: 'refuse' }));
    expect(source.ends).toEqual([['bad', 'complete', undefined]]);
    // As in a local match: charged per failed start, then the start guard gives up on the bot.
    const rows = await store.listResults(m.id);
    expect(rows.map((r) => r.verdict)).toEqual(['protocol', 'protocol', 'crash']);
    expect(rows[2].error).toMatch(/not started again: it failed to start 2 times in a row/);
  });

  it('referee player - charge mode (local matches): the same failure is recorded as crash for every scramble', async () => {
    const { store, m, job } = await setup();
    const clock = new FakeClock();
    const source = listSource([job('missing')]);
    await clock.run(runPlayer(source, { store, clock, makeLauncher: (bot) => new ScriptedLauncher(bot, () => plans[bot], { clock }), starts: new StartGuard() }));
    expect(source.ends).toEqual([['missing', 'complete', undefined]]);
    const rows = await store.listResults(m.id);
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.verdict === 'crash' && /spawn ENOENT/.test(r.error ?? ''))).toBe(true);
  });

  it('referee player - a batch its match no longer wants (the SPRT decided elsewhere) stops between scrambles, withdrawn', async () => {
    const { store, m, job } = await setup();
    const clock = new FakeClock();
    let asked = 0;
    const source = { ...listSource([job('ok')]), wanted: async () => ++asked < 2 };
    await clock.run(runPlayer(source, { store, clock, makeLauncher: (bot) => new ScriptedLauncher(bot, () => plans[bot], { clock }), starts: new StartGuard() }));
    expect(source.ends).toEqual([['ok', 'withdrawn', undefined]]);
    // Asked before the second and third scrambles: the second was still wanted, the third not.
    expect(asked).toBe(2);
    expect((await store.listResults(m.id)).map((r) => r.verdict)).toEqual(['solved', 'solved']);
  });
});

describe('distributed planning - jobs, batches, leases', () => {
  const scrambles = (n: number): ScrambleRecord[] =>
    Array.from({ length: n }, (_, index) => ({ id: 100 + index, matchId: 1, index, state: boards[0].state, puzzleClass: 'p', bound: { lowerBound: 1 } }));

  it('distributed planning - a job takes at most about a minute at the time limit, and small matches still spread', () => {
    expect(batchSize({ timeLimitMs: 10_000, count: 10_000 })).toBe(6);
    expect(batchSize({ timeLimitMs: 100, count: 10_000 })).toBe(200);
    expect(batchSize({ timeLimitMs: 600_000, count: 10_000 })).toBe(1);
    expect(batchSize({ timeLimitMs: 1000, count: 16 })).toBe(2);
    expect(batchSize({ timeLimitMs: 1000, count: 16 }, 7)).toBe(7);
  });

  it('distributed planning - the lease covers a job\'s worst case twice, within pg-boss\'s 24 h limit', () => {
    // 6 scrambles x (10 s limit + 20 s start allowance) = 180 s worst case.
    expect(leaseSeconds({ timeLimitMs: 10_000 }, 6)).toBe(2 * 180 + 60);
    expect(leaseSeconds({ timeLimitMs: 86_400_000 }, 1)).toBe(23 * 3600);
  });

  it('distributed planning - every play lands in exactly one job of its bot, bots interleaved, scramble order kept', () => {
    const plays = planPlays(['a', 'b'], scrambles(5), new Set(['100\u0000b', '103\u0000a']));
    const jobs = cutJobs(plays, 2);
    expect(jobs).toEqual([
      { bot: 'a', scrambleIds: [100, 101] },
      { bot: 'b', scrambleIds: [101, 102] },
      { bot: 'a', scrambleIds: [102, 104] },
      { bot: 'b', scrambleIds: [103, 104] },
    ]);
    const keys = jobs.flatMap((j) => j.scrambleIds.map((id) => `${id}/${j.bot}`)).sort();
    expect(keys).toEqual(plays.map((p) => `${p.scramble.id}/${p.bot}`).sort());
  });
});

describe('distributed progress - why a match waits', () => {
  const match: MatchRecord = { id: 4, config: null, seed: 's', generatorVersion: 'g', bots: ['a', 'b'], status: 'running', createdAt: '' };
  const jobs = (o: Partial<MatchJobs>): MatchJobs => ({
    results: 0, total: 10, queued: 3, active: 0, completed: 0, failed: 0, failures: [], refusals: [], liveWorkers: ['w1', 'w2'], silentWorkers: [], ...o,
  });

  it('distributed progress - says when no worker is live, and when every live worker refused a bot', () => {
    expect(stalledBecause(match, jobs({}))).toEqual([]);
    expect(stalledBecause(match, jobs({ liveWorkers: [] }))).toEqual(['no live worker: start one on any machine with arena worker --db <this database>']);
    const refusals = [
      { bot: 'b', worker: 'w1', reason: 'spawn ENOENT' },
      { bot: 'b', worker: 'w2', reason: 'unknown bot "b" on this machine' },
      { bot: 'a', worker: 'w1', reason: 'x' },
    ];
    expect(stalledBecause(match, jobs({ refusals }))).toEqual(['no live worker can start b: w1: spawn ENOENT; w2: unknown bot "b" on this machine']);
  });

  it('distributed progress - workers that could not beat (a database outage) are not called gone', () => {
    expect(stalledBecause(match, jobs({ liveWorkers: [], silentWorkers: ['w1', 'w2'] }))).toEqual([
      'no heartbeat lately from w1, w2: not gone, but unable to reach the database; waiting for them to beat again',
    ]);
  });

  it('distributed progress - says how to go on when jobs ran out of retries, and nothing once the match is complete', () => {
    expect(stalledBecause(match, jobs({ queued: 0, failed: 2, failures: ['boom'] }))).toEqual([
      '2 job(s) failed after every retry (boom); arena match --resume 4 --distributed queues what is missing',
    ]);
    expect(stalledBecause(match, jobs({ results: 10, liveWorkers: [] }))).toEqual([]);
    expect(stalledBecause({ ...match, status: 'finished' }, jobs({ liveWorkers: [] }))).toEqual([]);
  });
});
