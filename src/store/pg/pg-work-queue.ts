/**
 * The WorkQueue on PostgreSQL: jobs in pg-boss (its own schema, `arena_queue`, on the results' server), one
 * queue per (match, bot) so a worker that cannot start a bot simply stops asking that queue, and the
 * bookkeeping pg-boss does not keep (who holds which job, who refused which bot) in our `arena` tables.
 *
 * Claims, leases and retries are pg-boss's (SKIP LOCKED fetch, expireInSeconds, retry state). Taking a job
 * and recording who holds it happen in one transaction (pg-boss runs its statements on our connection), as
 * do completing it and dropping that record, so a worker declared dead can never complete a job that has
 * meanwhile gone to another worker. Only pg-boss's public API is used (no reads of its tables), so any
 * pg-boss 10 release works: counts come from getQueueSize and our own tables, and a job out of attempts is
 * cancelled by the worker that takes it past its limit (pg-boss itself retries without limit), which writes
 * why into arena.job_failures.
 */
import PgBoss from 'pg-boss';
import type pg from 'pg';
import { withReconnect, withTransaction } from './pg-connect.ts';
import type { HeldRow } from './pg-workers.ts';
import * as workers from './pg-workers.ts';
import type {
  EnqueueOptions,
  JobSpec,
  JobTask,
  LivenessOptions,
  MatchJobs,
  MatchQueue,
  QueueJob,
  WorkerInfo,
  WorkerRecord,
  WorkQueue,
} from '../work-queue.ts';

/** pg-boss's schema (its tables are pg-boss's alone: nothing here reads them). */
const BOSS_SCHEMA = 'arena_queue';

/** How often pg-boss's maintenance (lease expiry, archiving) runs, across all processes together. */
const MAINTENANCE_SECONDS = 10;

/** Default attempts per job before it counts as failed (each dead worker or refusal uses one). */
const DEFAULT_RETRY_LIMIT = 25;

/** pg-boss's own retry limit: never reached, so failing a job for good is our decision (see take). */
const BOSS_RETRY_LIMIT = 1_000_000;

/** Advisory lock key serializing queue creation ("PzAq"). */
const QUEUE_CREATE_LOCK = 0x507a4171;

/** The `bot` of a match's oracle jobs in our tables (bot names start with a lowercase letter, so never this). */
const OPTIMA_BOT = '#optima';

/** What a job asks, by its bot column. */
const taskOf = (bot: string): JobTask => (bot === OPTIMA_BOT ? 'optima' : 'play');

/** The bot column of a job to queue. */
const botOf = (j: JobSpec): string => ('task' in j ? OPTIMA_BOT : j.bot);

/** Jobs per insert statement. */
const INSERT_CHUNK = 1000;

interface JobData {
  matchId: number;
  bot: string;
  scrambleIds: number[];
  /** Hand-outs after the first before the job counts as failed. */
  retryLimit?: number;
}

/** Options of {@link openPgWorkQueue}. */
export interface PgWorkQueueOptions {
  /** Run pg-boss's maintenance in this process (workers do; a watching CLI need not). Default true. */
  readonly supervise?: boolean;
  /** Where pg-boss's background errors go (a dropped connection during maintenance). Default: ignored. */
  onError?(err: Error): void;
}

/** A pg-boss `db` on one connection: its statements join the caller's transaction. */
function onClient(c: pg.PoolClient): { executeSql(text: string, values: unknown[]): Promise<{ rows: unknown[] }> } {
  return { executeSql: (text, values) => c.query(text, values as unknown[]) };
}

/** Starts pg-boss on `pool` (installing or migrating its schema under its own lock) and returns the queue. */
export async function openPgWorkQueue(pool: pg.Pool, options: PgWorkQueueOptions = {}): Promise<WorkQueue> {
  const boss = new PgBoss({
    db: { executeSql: (text: string, values: unknown[]) => pool.query(text, values) },
    schema: BOSS_SCHEMA,
    supervise: options.supervise ?? true,
    schedule: false,
    migrate: true,
    maintenanceIntervalSeconds: MAINTENANCE_SECONDS,
    archiveCompletedAfterSeconds: 24 * 3600,
    deleteAfterDays: 7,
  });
  boss.on('error', (err) => options.onError?.(err));
  await boss.start();
  return new PgWorkQueue(pool, boss);
}

class PgWorkQueue implements WorkQueue {
  constructor(
    private readonly pool: pg.Pool,
    private readonly boss: PgBoss,
  ) {}

  /** Fails held jobs back into pg-boss's retry state, inside the caller's transaction. */
  private readonly handBack = async (c: pg.PoolClient, rows: readonly HeldRow[], reason: string): Promise<void> => {
    const byQueue = new Map<string, string[]>();
    for (const r of rows) byQueue.set(r.queue, [...(byQueue.get(r.queue) ?? []), r.job_id]);
    // pg-boss 10 takes output data with an id array too; its typings list only the single-id form.
    const fail = this.boss.fail.bind(this.boss) as (name: string, ids: string[], data: object, o: { db: unknown }) => Promise<unknown>;
    for (const [queue, ids] of byQueue) await fail(queue, ids, { reason }, { db: onClient(c) });
  };

  async enqueue(matchId: number, jobs: readonly JobSpec[], options: EnqueueOptions): Promise<number> {
    const bots = [...new Set(jobs.map(botOf))];
    const queueOf = new Map<string, string>();
    for (const bot of bots) {
      // A match's queues are numbered in the order its bots (and its oracle jobs) were first queued, so a
      // later enqueue (a resume, the oracle jobs after the plays) never takes a name already in use.
      const { rows } = await this.pool.query<{ queue: string }>(
        `INSERT INTO arena.match_queues (match_id, bot, queue, lease_seconds)
         SELECT $1::bigint, $2, 'arena-m' || $4::text || '-b' || (SELECT count(*) FROM arena.match_queues WHERE match_id = $1::bigint), $3
         ON CONFLICT (match_id, bot) DO UPDATE SET lease_seconds = EXCLUDED.lease_seconds
         RETURNING queue`,
        [matchId, bot, options.leaseSeconds, String(matchId)],
      );
      const queue = rows[0].queue;
      queueOf.set(bot, queue);
      await this.createQueueOnce(queue, options);
    }
    // Higher priority is fetched first: jobs come out in the order given (pg-boss orders equal priorities by
    // a random id).
    const inserts = jobs.map((j, k) => ({
      name: queueOf.get(botOf(j))!,
      priority: jobs.length - k,
      data: { matchId, bot: botOf(j), scrambleIds: [...j.scrambleIds], retryLimit: options.retryLimit ?? DEFAULT_RETRY_LIMIT } satisfies JobData,
      expireInSeconds: options.leaseSeconds,
      retryLimit: BOSS_RETRY_LIMIT,
    }));
    for (let i = 0; i < inserts.length; i += INSERT_CHUNK) await this.boss.insert(inserts.slice(i, i + INSERT_CHUNK));
    return inserts.length;
  }

  /**
   * Creates a pg-boss queue unless it exists. Creations are serialized across processes: pg-boss 10's
   * create_queue inserts the queue row and then adds a foreign key referencing the queue table, so two
   * matches starting at once deadlock each other without this lock.
   */
  private async createQueueOnce(queue: string, options: EnqueueOptions): Promise<void> {
    const lock = await this.pool.connect();
    try {
      await lock.query('SELECT pg_advisory_lock($1)', [QUEUE_CREATE_LOCK]);
      if (!(await this.boss.getQueue(queue))) {
        await this.boss.createQueue(queue, {
          name: queue,
          policy: 'standard',
          retryLimit: BOSS_RETRY_LIMIT,
          retryDelay: 0,
          expireInSeconds: options.leaseSeconds,
        });
      }
    } finally {
      await lock.query('SELECT pg_advisory_unlock($1)', [QUEUE_CREATE_LOCK]).catch(() => undefined);
      lock.release();
    }
  }

  async cancelMatch(matchId: number): Promise<void> {
    const { rows } = await this.pool.query<{ queue: string }>(`SELECT queue FROM arena.match_queues WHERE match_id = $1`, [matchId]);
    // Waiting jobs are dropped; a job being played runs out (its results are kept, first write wins) and the
    // history of finished and failed jobs stays with pg-boss's retention. (pg-boss 10's deleteQueue refuses a
    // queue that still has jobs of any state.)
    for (const r of rows) await this.boss.purgeQueue(r.queue);
    // A re-planned match starts with a clean slate of failures.
    await this.pool.query(`DELETE FROM arena.job_failures WHERE match_id = $1`, [matchId]);
  }

  registerWorker(info: WorkerInfo): Promise<number> {
    return withReconnect(() => workers.registerWorker(this.pool, info), false);
  }

  heartbeat(workerId: number, holding: readonly string[], liveness: LivenessOptions): Promise<boolean> {
    return withReconnect(() => withTransaction(this.pool, (c) => workers.heartbeat(c, this.handBack, workerId, holding, liveness)), true);
  }

  stopWorker(workerId: number, reason: string): Promise<void> {
    return withReconnect(() => withTransaction(this.pool, (c) => workers.stopWorker(c, this.handBack, workerId, reason)), true);
  }

  async openQueues(workerName: string): Promise<MatchQueue[]> {
    const { rows } = await withReconnect(
      () =>
        this.pool.query<{ match_id: number; bot: string; queue: string }>(
          `SELECT q.match_id, q.bot, q.queue
             FROM arena.match_queues q JOIN arena.matches m ON m.id = q.match_id
            WHERE m.status = 'running'
              AND NOT EXISTS (SELECT 1 FROM arena.refusals r WHERE r.match_id = q.match_id AND r.bot = q.bot AND r.worker = $1)
            ORDER BY q.match_id, q.queue`,
          [workerName],
        ),
      true,
    );
    return rows.map((r) => ({ matchId: r.match_id, task: taskOf(r.bot), bot: r.bot, queue: r.queue }));
  }

  // A retry after a lost reply may take a second job; the first is then returned by the heartbeat's
  // reconciliation, so retrying is safe.
  take(workerId: number, queue: MatchQueue): Promise<QueueJob | undefined> {
    return withReconnect(
      () =>
        withTransaction(this.pool, async (c) => {
          const [job] = await this.boss.fetch<JobData>(queue.queue, { batchSize: 1, includeMetadata: true, db: onClient(c) });
          if (!job) return undefined;
          if (job.retryCount > (job.data.retryLimit ?? DEFAULT_RETRY_LIMIT)) {
            // Out of attempts: failed for good, with the reason of its last hand-back (the match needs --resume).
            const out = job.output as { reason?: unknown; value?: { message?: unknown } } | null;
            const reason = String(out?.reason ?? out?.value?.message ?? JSON.stringify(out) ?? 'unknown');
            await c.query(`INSERT INTO arena.job_failures (job_id, match_id, bot, reason) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`, [
              job.id,
              job.data.matchId,
              job.data.bot,
              reason,
            ]);
            await this.boss.cancel(queue.queue, job.id, { db: onClient(c) });
            return undefined;
          }
          await c.query(
            `INSERT INTO arena.worker_jobs (job_id, queue, worker_id, match_id, bot, scrambles) VALUES ($1, $2, $3, $4, $5, $6)
             ON CONFLICT (job_id) DO UPDATE SET worker_id = EXCLUDED.worker_id, started_at = now()`,
            [job.id, queue.queue, workerId, job.data.matchId, job.data.bot, job.data.scrambleIds.length],
          );
          return {
            id: job.id,
            queue: queue.queue,
            matchId: job.data.matchId,
            task: taskOf(job.data.bot),
            bot: job.data.bot,
            scrambleIds: job.data.scrambleIds,
            attempt: job.retryCount,
          };
        }),
      true,
    );
  }

  complete(workerId: number, job: QueueJob): Promise<boolean> {
    return withReconnect(
      () =>
        withTransaction(this.pool, async (c) => {
          const mine = await c.query(`DELETE FROM arena.worker_jobs WHERE job_id = $1 AND worker_id = $2`, [job.id, workerId]);
          if (mine.rowCount === 0) return false;
          await this.boss.complete(job.queue, job.id, null as unknown as object, { db: onClient(c) });
          await c.query(`UPDATE arena.match_queues SET completed = completed + 1 WHERE queue = $1`, [job.queue]);
          return true;
        }),
      true,
    );
  }

  giveBack(workerId: number, job: QueueJob, reason: string): Promise<void> {
    return withReconnect(
      () =>
        withTransaction(this.pool, async (c) => {
          const mine = await c.query(`DELETE FROM arena.worker_jobs WHERE job_id = $1 AND worker_id = $2`, [job.id, workerId]);
          if ((mine.rowCount ?? 0) > 0) await this.handBack(c, [{ job_id: job.id, queue: job.queue }], reason);
        }),
      true,
    );
  }

  async refuse(workerName: string, matchId: number, bot: string, reason: string): Promise<void> {
    await withReconnect(
      () =>
        this.pool.query(
          `INSERT INTO arena.refusals (match_id, bot, worker, reason) VALUES ($1, $2, $3, $4)
           ON CONFLICT (match_id, bot, worker) DO UPDATE SET reason = EXCLUDED.reason, at = now()`,
          [matchId, bot, workerName, reason],
        ),
      true,
    );
  }

  async doneScrambles(bot: string, scrambleIds: readonly number[]): Promise<Set<number>> {
    const { rows } = await withReconnect(
      () => this.pool.query<{ scramble_id: number }>(`SELECT scramble_id FROM arena.results WHERE bot = $1 AND scramble_id = ANY($2::bigint[])`, [bot, scrambleIds]),
      true,
    );
    return new Set(rows.map((r) => r.scramble_id));
  }

  async finishIfComplete(matchId: number, o: { unlessQueued?: boolean } = {}): Promise<boolean> {
    // Waiting oracle jobs always hold the finish back (the report must show the optima); waiting plays only
    // for the cheap check (a finish with plays waiting is complete all the same: they are duplicates).
    const { rows: queues } = await withReconnect(() => this.pool.query<{ queue: string; bot: string }>(`SELECT queue, bot FROM arena.match_queues WHERE match_id = $1`, [matchId]), true);
    for (const q of queues) {
      if (!o.unlessQueued && taskOf(q.bot) !== 'optima') continue;
      if ((await withReconnect(() => this.boss.getQueueSize(q.queue), true)) > 0) return false;
    }
    const { rows } = await withReconnect(
      () =>
        this.pool.query<{ status: string; missing: number }>(
          `SELECT m.status,
                  (SELECT count(*) FROM arena.scrambles s WHERE s.match_id = m.id) * json_array_length(m.bots)
                  - (SELECT count(*) FROM arena.results r JOIN arena.scrambles s ON s.id = r.scramble_id
                      WHERE s.match_id = m.id AND r.bot IN (SELECT json_array_elements_text(m.bots)))
                  -- an oracle job being worked on counts as a missing piece
                  + (SELECT count(*) FROM arena.worker_jobs j WHERE j.match_id = m.id AND j.bot = $2) AS missing
             FROM arena.matches m WHERE m.id = $1`,
          [matchId, OPTIMA_BOT],
        ),
      true,
    );
    const row = rows[0];
    if (!row) return false;
    if (row.status === 'finished') return true;
    if (row.missing > 0 || row.status !== 'running') return false;
    await withReconnect(() => this.pool.query(`UPDATE arena.matches SET status = 'finished', updated_at = now() WHERE id = $1`, [matchId]), true);
    // Whatever jobs remain (duplicates of retried ones) have nothing left to play.
    await this.cancelMatch(matchId).catch(() => undefined);
    return true;
  }

  listWorkers(options: LivenessOptions & { includeStopped?: boolean }): Promise<WorkerRecord[]> {
    return withReconnect(() => workers.listWorkers(this.pool, options), true);
  }

  async matchJobs(matchId: number, liveness: LivenessOptions): Promise<MatchJobs | undefined> {
    const { rows: queues } = await this.pool.query<{ queue: string; completed: number }>(
      `SELECT queue, completed FROM arena.match_queues WHERE match_id = $1`,
      [matchId],
    );
    if (queues.length === 0) return undefined;
    let queued = 0;
    for (const q of queues) queued += (await this.boss.getQueueSize(q.queue)) ?? 0;
    const { rows: counts } = await this.pool.query<{ active: number; failed: number }>(
      `SELECT (SELECT count(*)::int FROM arena.worker_jobs WHERE match_id = $1) AS active,
              (SELECT count(*)::int FROM arena.job_failures WHERE match_id = $1) AS failed`,
      [matchId],
    );
    const { rows: failed } = await this.pool.query<{ reason: string }>(
      `SELECT reason FROM arena.job_failures WHERE match_id = $1 ORDER BY at DESC LIMIT 3`,
      [matchId],
    );
    const { rows: refusals } = await this.pool.query<{ bot: string; worker: string; reason: string }>(
      `SELECT bot, worker, reason FROM arena.refusals WHERE match_id = $1 ORDER BY bot, worker`,
      [matchId],
    );
    const { rows: tally } = await this.pool.query<{ results: number; total: number }>(
      `SELECT (SELECT count(*)::int FROM arena.results r JOIN arena.scrambles s ON s.id = r.scramble_id
                WHERE s.match_id = m.id AND r.bot IN (SELECT json_array_elements_text(m.bots))) AS results,
              (SELECT count(*)::int FROM arena.scrambles s WHERE s.match_id = m.id) * json_array_length(m.bots) AS total
         FROM arena.matches m WHERE m.id = $1`,
      [matchId],
    );
    const { live, silent } = await workers.workerLiveness(this.pool, liveness);
    return {
      results: tally[0]?.results ?? 0,
      total: tally[0]?.total ?? 0,
      queued,
      active: counts[0]?.active ?? 0,
      completed: queues.reduce((a, q) => a + q.completed, 0),
      failed: counts[0]?.failed ?? 0,
      failures: failed.map((f) => f.reason),
      refusals,
      liveWorkers: live,
      silentWorkers: silent,
    };
  }

  async close(): Promise<void> {
    await this.boss.stop({ graceful: false, close: false, wait: true });
  }
}
