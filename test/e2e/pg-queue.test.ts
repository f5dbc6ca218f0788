import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openPgStore, type PgStore } from '../../src/store/pg-store.ts';
import { openPgWorkQueue } from '../../src/store/pg-work-queue.ts';
import type { NewScramble, ScrambleRecord } from '../../src/store/types.ts';
import { OPTIMA_TASK, type WorkQueue } from '../../src/store/work-queue.ts';
import { skipPgTests, startPgServer, type PgServer } from '../helpers/pg-server.ts';

const liveness = { deadAfterSeconds: 30 };

function scrambles(n: number): NewScramble[] {
  return Array.from({ length: n }, (_, index) => ({
    index,
    state: { kind: 'hanoi', pegs: 3, start: 'AB', goal: 'CC' },
    puzzleClass: 'hanoi 2',
    bound: { optimal: 3, lowerBound: 3 },
  }));
}

/** Seconds the server has been up. */
async function uptime(raw: pg.Pool): Promise<number> {
  return (await raw.query(`SELECT extract(epoch FROM now() - pg_postmaster_start_time())::float8 AS s`)).rows[0].s as number;
}

const worker = (name: string) => ({ name, host: 'h', cpu: 'test cpu', pid: 1, concurrency: 1 });

describe.skipIf(skipPgTests())('pg work queue - the queue contract (jobs, workers, leases) on a real PostgreSQL', () => {
  let server: PgServer;
  let store: PgStore;
  let queue: WorkQueue;
  let raw: pg.Pool;

  beforeAll(async () => {
    server = await startPgServer();
  });
  afterAll(async () => {
    await server?.destroy();
  });
  beforeEach(async () => {
    const url = await server.createDatabase('queue');
    store = await openPgStore(url);
    queue = await openPgWorkQueue(store.pool, { supervise: false });
    raw = new pg.Pool({ connectionString: url, max: 2 });
    raw.on('error', () => undefined); // idle connections die in the restart test
  });
  afterEach(async () => {
    await queue.close();
    await store.close();
    await raw.end();
  });

  async function matchWith(n: number, bots = ['a', 'b']): Promise<{ id: number; s: ScrambleRecord[] }> {
    const m = await store.createMatch({ config: null, seed: '1', generatorVersion: 'g', bots, scrambles: scrambles(n) });
    return { id: m.id, s: await store.listScrambles(m.id) };
  }

  it('pg work queue - hands each job to one worker; completing it leaves nothing to take', async () => {
    const { id, s } = await matchWith(4);
    const added = await queue.enqueue(
      id,
      ['a', 'b'].flatMap((bot) => [{ bot, scrambleIds: [s[0].id, s[1].id] }, { bot, scrambleIds: [s[2].id, s[3].id] }]),
      { leaseSeconds: 60 },
    );
    expect(added).toBe(4);
    const w1 = await queue.registerWorker(worker('w1'));
    const w2 = await queue.registerWorker(worker('w2'));
    const queues = await queue.openQueues('w1');
    expect(queues.map((q) => q.bot)).toEqual(['a', 'b']);
    const qa = queues[0];
    const [j1, j2, j3] = await Promise.all([queue.take(w1, qa), queue.take(w2, qa), queue.take(w1, qa)]);
    const taken = [j1, j2, j3].filter((j) => j !== undefined);
    expect(taken).toHaveLength(2);
    expect(new Set(taken.map((j) => j!.id)).size).toBe(2);
    expect(taken.map((j) => j!.scrambleIds.length)).toEqual([2, 2]);
    expect(taken.every((j) => j!.bot === 'a' && j!.matchId === id && j!.attempt === 0)).toBe(true);

    const held = await queue.listWorkers(liveness);
    expect(held.map((w) => [w.name, w.cpu, w.jobs.length]).sort()).toEqual(
      [['w1', 'test cpu', taken.filter((j) => j === j1 || j === j3).length], ['w2', 'test cpu', j2 ? 1 : 0]].sort(),
    );
    for (const j of taken) {
      const owner = held.find((w) => w.jobs.some((h) => h.jobId === j!.id))!;
      expect(await queue.complete(owner.id, j!)).toBe(true);
    }
    expect(await queue.take(w1, qa)).toBeUndefined();
    const jobs = await queue.matchJobs(id, liveness);
    expect(jobs).toMatchObject({ queued: 2, active: 0, completed: 2, failed: 0, liveWorkers: ['w1', 'w2'] });
  });

  it('pg work queue - a silent worker is declared dead by the next heartbeat; its job goes to another worker', async () => {
    const { id, s } = await matchWith(2, ['a']);
    await queue.enqueue(id, [{ bot: 'a', scrambleIds: s.map((x) => x.id) }], { leaseSeconds: 3600 });
    const dead = await queue.registerWorker(worker('dead'));
    const live = await queue.registerWorker(worker('live'));
    const [q] = await queue.openQueues('dead');
    const job = (await queue.take(dead, q))!;
    expect(job).toBeDefined();
    expect(await queue.take(live, q)).toBeUndefined();

    // Not yet silent for long enough: nothing moves.
    expect(await queue.heartbeat(live, [], liveness)).toBe(true);
    expect(await queue.take(live, q)).toBeUndefined();

    await raw.query(`UPDATE arena.workers SET heartbeat_at = now() - interval '1 hour' WHERE id = $1`, [dead]);
    // Silence counts only while the server is up (see the restart test): let it be up long enough.
    const short = { deadAfterSeconds: 2 };
    while ((await uptime(raw)) < 2.5) await new Promise((r) => setTimeout(r, 200));
    expect(await queue.heartbeat(live, [], short)).toBe(true);
    const again = (await queue.take(live, q))!;
    expect(again.id).toBe(job.id);
    expect(again.attempt).toBe(1);
    expect(again.scrambleIds).toEqual(job.scrambleIds);

    // The dead worker comes back: it learns it was dropped, and cannot complete the job it lost.
    expect(await queue.heartbeat(dead, [job.id], liveness)).toBe(false);
    expect(await queue.complete(dead, job)).toBe(false);
    expect(await queue.complete(live, again)).toBe(true);
    const workers = await queue.listWorkers({ ...liveness, includeStopped: true });
    expect(workers.find((w) => w.name === 'dead')).toMatchObject({ stopReason: 'no heartbeat for 2 s' });
    expect(await queue.listWorkers(liveness)).toHaveLength(1);
  });

  it('pg work queue - after a server restart, every worker gets the full window to come back before its jobs move', async () => {
    const { id, s } = await matchWith(1, ['a']);
    await queue.enqueue(id, [{ bot: 'a', scrambleIds: [s[0].id] }], { leaseSeconds: 3600 });
    const away = await queue.registerWorker(worker('away'));
    const back = await queue.registerWorker(worker('back'));
    const [q] = await queue.openQueues('away');
    expect(await queue.take(away, q)).toBeDefined();
    await raw.query(`UPDATE arena.workers SET heartbeat_at = now() - interval '1 hour' WHERE id = $1`, [away]);
    await server.stop('immediate');
    await server.start();
    const window = { deadAfterSeconds: 20 };
    expect(await uptime(raw)).toBeLessThan(window.deadAfterSeconds);
    expect(await queue.heartbeat(back, [], window)).toBe(true);
    expect(await queue.take(back, q)).toBeUndefined();
    expect((await queue.listWorkers({ ...window, includeStopped: true })).every((w) => w.stoppedAt === undefined)).toBe(true);
  });

  it('pg work queue - a job taken but forgotten (lost reply) is returned by its worker\'s own heartbeat', async () => {
    const { id, s } = await matchWith(1, ['a']);
    await queue.enqueue(id, [{ bot: 'a', scrambleIds: [s[0].id] }], { leaseSeconds: 3600 });
    const w = await queue.registerWorker(worker('w'));
    const [q] = await queue.openQueues('w');
    const job = (await queue.take(w, q))!;
    // Just taken: a heartbeat that does not list it yet leaves it alone.
    await queue.heartbeat(w, [], liveness);
    expect(await queue.take(w, q)).toBeUndefined();
    await raw.query(`UPDATE arena.worker_jobs SET started_at = now() - interval '1 minute'`);
    await queue.heartbeat(w, [], liveness);
    expect((await queue.take(w, q))?.id).toBe(job.id);
  });

  it('pg work queue - a refusing worker stops seeing that bot of that match; others still take it', async () => {
    const first = await matchWith(1, ['a', 'b']);
    const second = await matchWith(1, ['a']);
    await queue.enqueue(first.id, [{ bot: 'a', scrambleIds: [first.s[0].id] }, { bot: 'b', scrambleIds: [first.s[0].id] }], { leaseSeconds: 60 });
    await queue.enqueue(second.id, [{ bot: 'a', scrambleIds: [second.s[0].id] }], { leaseSeconds: 60 });
    const w1 = await queue.registerWorker(worker('w1'));
    const w2 = await queue.registerWorker(worker('w2'));
    const qa = (await queue.openQueues('w1')).find((q) => q.matchId === first.id && q.bot === 'a')!;
    const job = (await queue.take(w1, qa))!;
    await queue.refuse('w1', first.id, 'a', 'cannot start: no such file');
    await queue.giveBack(w1, job, 'cannot start bot a');
    expect((await queue.openQueues('w1')).map((q) => [q.matchId, q.bot])).toEqual([
      [first.id, 'b'],
      [second.id, 'a'],
    ]);
    expect((await queue.openQueues('w2')).map((q) => [q.matchId, q.bot])).toHaveLength(3);
    const back = (await queue.take(w2, qa))!;
    expect(back.id).toBe(job.id);
    const jobs = await queue.matchJobs(first.id, liveness);
    expect(jobs?.refusals).toEqual([{ bot: 'a', worker: 'w1', reason: 'cannot start: no such file' }]);
    expect(await queue.matchJobs(9999, liveness)).toBeUndefined();
  });

  it('pg work queue - a job out of retries is failed with its reason', async () => {
    const { id, s } = await matchWith(1, ['a']);
    await queue.enqueue(id, [{ bot: 'a', scrambleIds: [s[0].id] }], { leaseSeconds: 60, retryLimit: 1 });
    const w = await queue.registerWorker(worker('w'));
    const [q] = await queue.openQueues('w');
    await queue.giveBack(w, (await queue.take(w, q))!, 'first');
    await queue.giveBack(w, (await queue.take(w, q))!, 'second');
    expect(await queue.take(w, q)).toBeUndefined();
    expect(await queue.matchJobs(id, liveness)).toMatchObject({ queued: 0, failed: 1, failures: ['second'] });
  });

  it('pg work queue - a worker not heard from lately but not declared dead is silent, not gone (a database outage)', async () => {
    const { id, s } = await matchWith(1, ['a']);
    await queue.enqueue(id, [{ bot: 'a', scrambleIds: [s[0].id] }], { leaseSeconds: 60 });
    const w = await queue.registerWorker(worker('w'));
    const short = { deadAfterSeconds: 2 };
    while ((await uptime(raw)) < 2.5) await new Promise((r) => setTimeout(r, 200));
    await raw.query(`UPDATE arena.workers SET heartbeat_at = now() - interval '1 minute' WHERE id = $1`, [w]);
    expect(await queue.matchJobs(id, short)).toMatchObject({ liveWorkers: [], silentWorkers: ['w'] });
    // It beats again (it could reach the server once more): live, and nothing was taken from it.
    expect(await queue.heartbeat(w, [], short)).toBe(true);
    expect(await queue.matchJobs(id, short)).toMatchObject({ liveWorkers: ['w'], silentWorkers: [] });
  });

  it('pg work queue - oracle jobs hold a complete match back until they are settled; withdrawing drops what waits', async () => {
    const { id, s } = await matchWith(1, ['a']);
    await queue.enqueue(id, [{ bot: 'a', scrambleIds: [s[0].id] }], { leaseSeconds: 60 });
    await queue.enqueue(id, [{ bot: OPTIMA_TASK, scrambleIds: [s[0].id] }], { leaseSeconds: 60 });
    const w = await queue.registerWorker(worker('w'));
    const queues = await queue.openQueues('w');
    expect(queues.map((q) => q.bot)).toEqual(['a', OPTIMA_TASK]);
    await queue.complete(w, (await queue.take(w, queues[0]))!);
    await store.recordResult({ scrambleId: s[0].id, bot: 'a', verdict: 'solved', moveCount: 3, moves: 'ACABCB', wallMs: 1 });
    expect(await queue.finishIfComplete(id)).toBe(false);
    const optima = (await queue.take(w, queues[1]))!;
    expect(await queue.finishIfComplete(id)).toBe(false);
    expect(await queue.complete(w, optima)).toBe(true);
    expect(await queue.matchJobs(id, liveness)).toMatchObject({ queued: 0, active: 0, completed: 2 });
    expect(await queue.finishIfComplete(id)).toBe(true);

    const other = await matchWith(2, ['a']);
    await queue.enqueue(other.id, other.s.map((x) => ({ bot: 'a', scrambleIds: [x.id] })), { leaseSeconds: 60 });
    expect(await queue.matchJobs(other.id, liveness)).toMatchObject({ queued: 2 });
    await queue.cancelMatch(other.id);
    expect(await queue.matchJobs(other.id, liveness)).toMatchObject({ queued: 0 });
  });

  it('pg work queue - a match is finished once every scramble has a result from every bot', async () => {
    const { id, s } = await matchWith(2, ['a', 'b']);
    await queue.enqueue(id, [{ bot: 'a', scrambleIds: s.map((x) => x.id) }], { leaseSeconds: 60 });
    const put = (scrambleId: number, bot: string) => store.recordResult({ scrambleId, bot, verdict: 'solved', moveCount: 3, moves: 'ACABCB', wallMs: 1 });
    await put(s[0].id, 'a');
    await put(s[1].id, 'a');
    await put(s[0].id, 'b');
    expect(await queue.doneScrambles('a', s.map((x) => x.id))).toEqual(new Set([s[0].id, s[1].id]));
    expect(await queue.doneScrambles('b', s.map((x) => x.id))).toEqual(new Set([s[0].id]));
    expect(await queue.finishIfComplete(id)).toBe(false);
    await put(s[1].id, 'b');
    // A worker's cheap check: the job still waits, so it does not count results yet.
    expect(await queue.finishIfComplete(id, { unlessQueued: true })).toBe(false);
    expect((await store.getMatch(id))?.status).toBe('running');
    expect(await queue.finishIfComplete(id)).toBe(true);
    expect((await store.getMatch(id))?.status).toBe('finished');
    expect(await queue.openQueues('w')).toEqual([]);
  });
});
