/**
 * PostgreSQL throughput on a throwaway local server with durable commits (fsync and synchronous_commit on,
 * as a real deployment runs): results recorded per second, one transaction each, from one connection and
 * from several at once (many workers); the job queue's cost per job (enqueue, and take + complete); and,
 * end to end, scrambles per second with 1 and 2 worker processes on an instant bot.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openContext } from '../src/app/context.ts';
import { startDistributedMatch } from '../src/app/matches/distributed.ts';
import type { PuzzleState } from '../src/core/types.ts';
import { openPgStore, type PgStore } from '../src/store/pg/pg-store.ts';
import { openPgWorkQueue } from '../src/store/pg/pg-work-queue.ts';
import { tsxLoaderPath } from '../src/transport/process/builtin-bots.ts';
import { pgAvailable, startPgServer, type PgServer } from '../test/helpers/pg-server.ts';
import type { BenchRow, BenchSuite } from './types.ts';

const STATE: PuzzleState = { kind: 'sliding', rows: 4, cols: 4, tiles: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0, 15] };
const MOVES = 'RDLURDLURDLURDLURDLURDLURDLURDLURDLURDLURDLURDLURDL';

async function scrambleIds(store: PgStore, n: number, bots: string[]): Promise<number[]> {
  const scrambles = Array.from({ length: n }, (_, index) => ({ index, state: STATE, puzzleClass: 'sliding 4x4', bound: { optimal: 1, lowerBound: 1 } }));
  const m = await store.createMatch({ config: { bench: true }, seed: 'bench', generatorVersion: 'bench', bots, scrambles });
  return (await store.listScrambles(m.id)).map((s) => s.id);
}

/** Results/s with `clients` connections each recording its share, one transaction per result. */
async function recordRate(url: string, count: number, clients: number): Promise<number> {
  const stores = await Promise.all(Array.from({ length: clients }, () => openPgStore(url, { maxConnections: 1 })));
  try {
    const bots = Array.from({ length: clients }, (_, c) => `bot${c}`);
    const ids = await scrambleIds(stores[0], Math.ceil(count / clients), bots);
    const t0 = performance.now();
    await Promise.all(
      stores.map(async (store, c) => {
        for (const scrambleId of ids) await store.recordResult({ scrambleId, bot: bots[c], verdict: 'solved', moveCount: MOVES.length, moves: MOVES, wallMs: 12.5 });
      }),
    );
    return (ids.length * clients) / ((performance.now() - t0) / 1000);
  } finally {
    await Promise.all(stores.map((s) => s.close()));
  }
}

/** Milliseconds per job to enqueue, and to take + complete, with one worker. */
async function queueCost(url: string, jobs: number): Promise<{ enqueueMs: number; cycleMs: number }> {
  const store = await openPgStore(url);
  const queue = await openPgWorkQueue(store.pool, { supervise: false });
  try {
    const ids = await scrambleIds(store, jobs, ['a']);
    const m = (await store.listMatches(1))[0];
    const t0 = performance.now();
    await queue.enqueue(m.id, ids.map((id) => ({ bot: 'a', scrambleIds: [id] })), { leaseSeconds: 600 });
    const enqueueMs = (performance.now() - t0) / jobs;
    const w = await queue.registerWorker({ name: 'bench', host: 'local', cpu: 'bench', pid: process.pid, concurrency: 1 });
    const [q] = await queue.openQueues('bench');
    const t1 = performance.now();
    let done = 0;
    for (;;) {
      const job = await queue.take(w, q);
      if (!job) break;
      await queue.complete(w, job);
      done++;
    }
    if (done !== jobs) throw new Error(`queue bench: ${done} of ${jobs} jobs came out`);
    return { enqueueMs, cycleMs: (performance.now() - t1) / jobs };
  } finally {
    await queue.close();
    await store.close();
  }
}

const ROOT = join(import.meta.dirname, '..');

/**
 * Scrambles/s of a distributed match of `count` 2x2 scrambles for the fixture bot `instant`, played by
 * `workers` worker processes that are registered before the match is queued (their start-up is not timed;
 * each bot's start on its first job is).
 */
async function distributedRate(url: string, count: number, workers: number, batch?: number): Promise<{ rate: number; steady: number; batch: number; count: number }> {
  const setup = await openPgStore(url);
  const loader = pathToFileURL(tsxLoaderPath(ROOT)!).href;
  await setup.addBot({ name: 'instant', kind: 'command', cmd: `${process.execPath} --import ${loader} ${join(ROOT, 'test/fixtures/bots/instant.ts')}` });
  const children: ChildProcess[] = [];
  try {
    for (let w = 0; w < workers; w++) {
      children.push(spawn(process.execPath, [join(ROOT, 'bin/arena.js'), 'worker', '--db', url, '--name', `bench${w}`, '--quiet'], { stdio: 'ignore' }));
    }
    while ((await setup.pool.query(`SELECT count(*)::int AS n FROM arena.workers WHERE stopped_at IS NULL`)).rows[0].n < workers) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const opened = await openContext({ db: url });
    if (!opened.ok) throw new Error(opened.reason);
    const ctx = opened.value;
    try {
      const t0 = performance.now();
      const started = await startDistributedMatch(
        ctx,
        { bots: ['instant'], scrambles: { spec: { kind: 'sliding', rows: 2, cols: 2 }, count }, seed: 'bench', timeLimitMs: 10_000, maxMoves: 1000, concurrency: 1 },
        batch !== undefined ? { batch } : {},
      );
      if (!started.ok) throw new Error(started.reason);
      while ((await ctx.store.getMatch(started.value.match.id))?.status !== 'finished') await new Promise((r) => setTimeout(r, 20));
      const rate = count / ((performance.now() - t0) / 1000);
      if ((await ctx.store.listSummaries(started.value.match.id)).length !== count) throw new Error('distributed bench: results missing');
      // Steady state: from the first result to the last (bot start-up and the first poll excluded).
      const span = await setup.pool.query(`SELECT extract(epoch FROM max(created_at) - min(created_at))::float8 AS s FROM arena.results`);
      return { rate, steady: (count - 1) / span.rows[0].s, batch: started.value.batch, count };
    } finally {
      await ctx.close();
    }
  } finally {
    for (const c of children) c.kill('SIGINT');
    await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)))));
    await setup.close();
  }
}

export const bench: BenchSuite = async ({ quick }) => {
  if (!pgAvailable()) throw new Error('PostgreSQL not installed (apt-get install postgresql)');
  const server: PgServer = await startPgServer({ durable: true });
  const rows: BenchRow[] = [];
  try {
    const count = quick ? 2_000 : 10_000;
    const one = await recordRate(await server.createDatabase('bench'), count, 1);
    rows.push({ name: 'recordResult, one transaction each, 1 connection', value: one, unit: 'results/s', note: `${count} 50-move results, fsync on` });
    const eight = await recordRate(await server.createDatabase('bench'), count, 8);
    rows.push({ name: 'recordResult, one transaction each, 8 connections at once', value: eight, unit: 'results/s', note: `${count} results in all (group commit)` });

    const jobs = quick ? 200 : 1_000;
    const cost = await queueCost(await server.createDatabase('bench'), jobs);
    rows.push({ name: 'queue: enqueue one job', value: cost.enqueueMs, unit: 'ms/job', note: `${jobs} jobs, inserted in batches` });
    rows.push({ name: 'queue: take + complete one job (one worker)', value: cost.cycleMs, unit: 'ms/job', note: 'two transactions: fetch + holder row, completion' });

    for (const [workers, batch] of [[1, undefined], [2, undefined], [2, 50]] as const) {
      const e2e = await distributedRate(await server.createDatabase('bench'), quick ? 120 : 600, workers, batch);
      rows.push({
        name: `end to end: ${workers} worker process${workers > 1 ? 'es' : ''}, instant bot, ${batch ? `batch ${batch}` : `default batch (${e2e.batch})`}`,
        value: e2e.rate,
        unit: 'scrambles/s',
        note: `${e2e.count} 2x2 scrambles, 10s limit, queued to finished (workers up, bots not); first to last result ${e2e.steady.toFixed(0)}/s`,
      });
    }
  } finally {
    await server.destroy();
  }
  return rows;
};
