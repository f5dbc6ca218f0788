/**
 * Worker liveness on PostgreSQL: registration, heartbeats, and handing back the jobs of workers that died.
 *
 * The job queue's own lease (pg-boss expireInSeconds) returns a job only after the longest time a job may
 * legitimately take, which for slow bots is many minutes. A SIGKILLed worker is noticed much sooner here:
 * it stops heart-beating, the next live worker's heartbeat finds it silent for `deadAfterSeconds`, marks it
 * stopped and fails its held jobs back into the queue's retry state in the same transaction. Every time is
 * the server's clock, so machines with skewed clocks agree.
 */
import type pg from 'pg';
import type { LivenessOptions, WorkerInfo, WorkerRecord } from '../work-queue.ts';

/** A held job as stored in arena.worker_jobs. */
export interface HeldRow {
  readonly job_id: string;
  readonly queue: string;
}

/** Fails jobs back into the queue (for retry) inside the caller's transaction. */
export type HandBack = (c: pg.PoolClient, rows: readonly HeldRow[], reason: string) => Promise<void>;

/**
 * Whether a worker was heard from within the window `secs` (a SQL parameter), the one liveness rule of every
 * query here. Silence while the server itself was down does not count: after a restart every worker gets the
 * full window to reconnect before it counts as gone (and before its jobs are taken away), so a watcher does
 * not call workers dead that merely could not reach the server.
 */
function heardWithin(secs: string): string {
  return `GREATEST(heartbeat_at, pg_postmaster_start_time()) >= now() - make_interval(secs => ${secs})`;
}

/**
 * A job just taken may not yet be in the worker's own list when its heartbeat runs; such rows are left alone
 * for this long before the heartbeat decides the worker lost track of them.
 */
const FRESH_TAKE_SECONDS = 15;

/**
 * Registers a worker. Its name's earlier refusals are forgotten: a restarted worker (perhaps after the bot
 * was installed on its machine) tries those bots again.
 */
export async function registerWorker(pool: pg.Pool, info: WorkerInfo): Promise<number> {
  await pool.query(`DELETE FROM arena.refusals WHERE worker = $1`, [info.name]);
  const { rows } = await pool.query<{ id: number }>(
    `INSERT INTO arena.workers (name, host, cpu, pid, concurrency) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [info.name, info.host, info.cpu, info.pid, info.concurrency],
  );
  return rows[0].id;
}

/**
 * One heartbeat (one transaction): refreshes this worker, returns held jobs it no longer knows of, and
 * hands back the jobs of every worker silent for too long. False when this worker itself was found dead.
 */
export async function heartbeat(
  c: pg.PoolClient,
  handBack: HandBack,
  workerId: number,
  holding: readonly string[],
  liveness: LivenessOptions,
): Promise<boolean> {
  const me = await c.query(`UPDATE arena.workers SET heartbeat_at = now() WHERE id = $1 AND stopped_at IS NULL RETURNING id`, [workerId]);
  if (me.rowCount === 0) return false;
  const lost = await c.query<HeldRow>(
    `DELETE FROM arena.worker_jobs
      WHERE worker_id = $1 AND NOT (job_id::text = ANY($2::text[])) AND started_at < now() - make_interval(secs => $3)
      RETURNING job_id, queue`,
    [workerId, holding, FRESH_TAKE_SECONDS],
  );
  if (lost.rows.length > 0) await handBack(c, lost.rows, 'the worker lost track of the job (a lost reply from the server)');
  await reapDead(c, handBack, liveness);
  return true;
}

/** Marks silent workers stopped and hands their jobs back. Two reapers at once serialize on the rows. */
export async function reapDead(c: pg.PoolClient, handBack: HandBack, liveness: LivenessOptions): Promise<void> {
  const dead = await c.query<{ id: number; name: string }>(
    `UPDATE arena.workers
        SET stopped_at = now(), stop_reason = $2
      WHERE stopped_at IS NULL
        AND NOT ${heardWithin('$1')}
      RETURNING id, name`,
    [liveness.deadAfterSeconds, `no heartbeat for ${liveness.deadAfterSeconds} s`],
  );
  for (const w of dead.rows) {
    const held = await c.query<HeldRow>(`DELETE FROM arena.worker_jobs WHERE worker_id = $1 RETURNING job_id, queue`, [w.id]);
    if (held.rows.length > 0) await handBack(c, held.rows, `worker ${w.name} stopped responding (no heartbeat for ${liveness.deadAfterSeconds} s)`);
  }
}

/** A clean stop: the worker is marked stopped and its unfinished jobs go back at once. */
export async function stopWorker(c: pg.PoolClient, handBack: HandBack, workerId: number, reason: string): Promise<void> {
  await c.query(`UPDATE arena.workers SET stopped_at = now(), stop_reason = $2 WHERE id = $1 AND stopped_at IS NULL`, [workerId, reason]);
  const held = await c.query<HeldRow>(`DELETE FROM arena.worker_jobs WHERE worker_id = $1 RETURNING job_id, queue`, [workerId]);
  if (held.rows.length > 0) await handBack(c, held.rows, `worker stopped: ${reason}`);
}

interface WorkerRow {
  id: number;
  name: string;
  host: string;
  cpu: string;
  pid: number;
  concurrency: number;
  started_at: Date;
  heartbeat_at: Date;
  silent: number;
  stopped_at: Date | null;
  stop_reason: string | null;
  jobs: Array<{ job_id: string; match_id: number; bot: string; scrambles: number; started_at: string }> | null;
}

/** Workers with their held jobs: live ones (heard from within the liveness window), or all. */
export async function listWorkers(pool: pg.Pool, options: LivenessOptions & { includeStopped?: boolean }): Promise<WorkerRecord[]> {
  const { rows } = await pool.query<WorkerRow>(
    `SELECT w.*, extract(epoch FROM now() - w.heartbeat_at)::float8 AS silent,
            (SELECT json_agg(j ORDER BY j.started_at) FROM arena.worker_jobs j WHERE j.worker_id = w.id) AS jobs
       FROM arena.workers w
      WHERE $1 OR (w.stopped_at IS NULL AND ${heardWithin('$2')})
      ORDER BY w.name, w.id`,
    [options.includeStopped ?? false, options.deadAfterSeconds],
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    host: r.host,
    cpu: r.cpu,
    pid: r.pid,
    concurrency: r.concurrency,
    startedAt: r.started_at.toISOString(),
    heartbeatAt: r.heartbeat_at.toISOString(),
    silentSeconds: r.silent,
    ...(r.stopped_at ? { stoppedAt: r.stopped_at.toISOString() } : {}),
    ...(r.stop_reason ? { stopReason: r.stop_reason } : {}),
    jobs: (r.jobs ?? []).map((j) => ({
      jobId: j.job_id,
      matchId: Number(j.match_id),
      bot: j.bot,
      scrambles: j.scrambles,
      startedAt: new Date(j.started_at).toISOString(),
    })),
  }));
}

/**
 * Names of the workers not stopped: `live` ones (heard from within the window) and `silent` ones (not heard
 * from for longer, but not declared dead either: no live worker's heartbeat has reaped them yet, which is
 * what a database outage looks like from every side).
 */
export async function workerLiveness(pool: pg.Pool, liveness: LivenessOptions): Promise<{ live: string[]; silent: string[] }> {
  const { rows } = await pool.query<{ name: string; live: boolean }>(
    `SELECT name, bool_or(${heardWithin('$1')}) AS live FROM arena.workers
      WHERE stopped_at IS NULL GROUP BY name ORDER BY name`,
    [liveness.deadAfterSeconds],
  );
  return { live: rows.filter((r) => r.live).map((r) => r.name), silent: rows.filter((r) => !r.live).map((r) => r.name) };
}
