import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openPgStore, type PgStore } from '../../src/store/pg/pg-store.ts';
import { openPgWorkQueue } from '../../src/store/pg/pg-work-queue.ts';
import type { NewScramble, ScrambleRecord } from '../../src/store/types.ts';
import type { WorkQueue } from '../../src/store/work-queue.ts';
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

});
