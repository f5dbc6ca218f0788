/**
 * The WorkQueue in memory, over any Store (its results and match status): for unit tests of what takes jobs
 * (the queue's JobSource, the worker session) without a database server, and the second implementation the
 * queue contract suite holds to the PostgreSQL one. Time is the given clock's; a worker silent past the
 * window is declared dead by the next heartbeat of another, as on PostgreSQL. There is no lease expiry (a
 * hanging worker that still beats keeps its job), and no server restarts to forgive silence across.
 */
import type { Store } from '../types.ts';
import type {
  EnqueueOptions,
  JobSpec,
  JobTask,
  LivenessOptions,
  MatchJobs,
  MatchQueue,
  QueueJob,
  Refusal,
  WorkerInfo,
  WorkerRecord,
  WorkQueue,
} from '../work-queue.ts';

/** Default attempts per job before it counts as failed, as on PostgreSQL. */
const DEFAULT_RETRY_LIMIT = 25;

interface MemJob {
  readonly job: Omit<QueueJob, 'attempt'>;
  readonly retryLimit: number;
  readonly priority: number;
  state: 'waiting' | 'active' | 'done';
  attempt: number;
  reason?: string;
}

interface MemWorker {
  readonly id: number;
  readonly info: WorkerInfo;
  readonly startedAt: number;
  heartbeatAt: number;
  stoppedAt?: number;
  stopReason?: string;
}

interface Held {
  readonly jobId: string;
  readonly workerId: number;
  readonly startedAt: number;
}

/** An in-memory WorkQueue; `now` in milliseconds (a test's fake clock). */
export function createMemoryWorkQueue(store: Pick<Store, 'getMatch' | 'listScrambles' | 'listSummaries' | 'setMatchStatus'>, now: () => number = Date.now): WorkQueue {
  const queues = new Map<string, { matchId: number; task: JobTask; bot: string; completed: number }>();
  const jobs = new Map<string, MemJob>();
  const workers = new Map<number, MemWorker>();
  const held = new Map<string, Held>();
  const refusals = new Map<string, Refusal & { matchId: number }>();
  const failures: Array<{ matchId: number; reason: string }> = [];
  let nextJob = 0;
  let nextWorker = 0;
  let priority = 0;

  const live = (w: MemWorker, l: LivenessOptions) => w.stoppedAt === undefined && now() - w.heartbeatAt <= l.deadAfterSeconds * 1000;
  const queueName = (matchId: number, task: JobTask, bot: string) => {
    for (const [name, q] of queues) if (q.matchId === matchId && q.bot === bot) return name;
    const name = `m${matchId}-q${[...queues.values()].filter((q) => q.matchId === matchId).length}`;
    queues.set(name, { matchId, task, bot, completed: 0 });
    return name;
  };
  const handBack = (jobId: string, reason: string) => {
    held.delete(jobId);
    const j = jobs.get(jobId);
    if (!j || j.state !== 'active') return;
    j.state = 'waiting';
    j.attempt++;
    j.reason = reason;
  };
  const stop = (w: MemWorker, reason: string) => {
    w.stoppedAt = now();
    w.stopReason = reason;
    for (const h of [...held.values()]) if (h.workerId === w.id) handBack(h.jobId, reason);
  };
  const missing = async (matchId: number): Promise<number> => {
    const match = await store.getMatch(matchId);
    if (!match) return Infinity;
    const scrambles = (await store.listScrambles(matchId)).length;
    const results = (await store.listSummaries(matchId)).filter((r) => match.bots.includes(r.bot)).length;
    return scrambles * match.bots.length - results;
  };
  const ofMatch = (matchId: number, task?: JobTask) =>
    [...jobs.values()].filter((j) => j.job.matchId === matchId && (task === undefined || j.job.task === task));

  return {
    async enqueue(matchId: number, specs: readonly JobSpec[], options: EnqueueOptions): Promise<number> {
      for (const spec of specs) {
        const task: JobTask = 'task' in spec ? 'optima' : 'play';
        const bot = 'task' in spec ? '#optima' : spec.bot;
        const queue = queueName(matchId, task, bot);
        const id = `job-${++nextJob}`;
        jobs.set(id, {
          job: { id, queue, matchId, task, bot, scrambleIds: [...spec.scrambleIds] },
          retryLimit: options.retryLimit ?? DEFAULT_RETRY_LIMIT,
          priority: --priority,
          state: 'waiting',
          attempt: 0,
        });
      }
      return specs.length;
    },
    async cancelMatch(matchId) {
      for (const j of ofMatch(matchId)) if (j.state === 'waiting') jobs.delete(j.job.id);
      failures.splice(0, failures.length, ...failures.filter((f) => f.matchId !== matchId));
    },
    async registerWorker(info) {
      for (const [k, r] of refusals) if (r.worker === info.name) refusals.delete(k);
      const id = ++nextWorker;
      workers.set(id, { id, info, startedAt: now(), heartbeatAt: now() });
      return id;
    },
    async heartbeat(workerId, holding, liveness) {
      const me = workers.get(workerId);
      if (!me || me.stoppedAt !== undefined) return false;
      me.heartbeatAt = now();
      for (const h of [...held.values()]) if (h.workerId === workerId && !holding.includes(h.jobId) && now() - h.startedAt > 15_000) handBack(h.jobId, 'the worker lost track of the job');
      for (const w of workers.values()) if (w.stoppedAt === undefined && !live(w, liveness)) stop(w, `no heartbeat for ${liveness.deadAfterSeconds} s`);
      return true;
    },
    async stopWorker(workerId, reason) {
      const w = workers.get(workerId);
      if (w && w.stoppedAt === undefined) stop(w, `worker stopped: ${reason}`);
    },
    async openQueues(workerName) {
      const out: MatchQueue[] = [];
      for (const [queue, q] of queues) {
        if ((await store.getMatch(q.matchId))?.status !== 'running') continue;
        if (refusals.has(`${q.matchId}\u0000${q.bot}\u0000${workerName}`)) continue;
        out.push({ matchId: q.matchId, task: q.task, bot: q.bot, queue });
      }
      return out.sort((a, b) => a.matchId - b.matchId || (a.queue < b.queue ? -1 : 1));
    },
    async take(workerId, queue) {
      const waiting = [...jobs.values()].filter((j) => j.job.queue === queue.queue && j.state === 'waiting').sort((a, b) => b.priority - a.priority);
      for (const j of waiting) {
        if (j.attempt > j.retryLimit) {
          j.state = 'done';
          failures.push({ matchId: j.job.matchId, reason: j.reason ?? 'unknown' });
          continue;
        }
        j.state = 'active';
        held.set(j.job.id, { jobId: j.job.id, workerId, startedAt: now() });
        return { ...j.job, attempt: j.attempt };
      }
      return undefined;
    },
    async complete(workerId, job) {
      const h = held.get(job.id);
      if (!h || h.workerId !== workerId) return false;
      held.delete(job.id);
      jobs.get(job.id)!.state = 'done';
      queues.get(job.queue)!.completed++;
      return true;
    },
    async giveBack(workerId, job, reason) {
      if (held.get(job.id)?.workerId === workerId) handBack(job.id, reason);
    },
    async refuse(workerName, matchId, bot, reason) {
      refusals.set(`${matchId}\u0000${bot}\u0000${workerName}`, { matchId, bot, worker: workerName, reason });
    },
    async doneScrambles(bot, scrambleIds) {
      const ids = new Set(scrambleIds);
      const matches = new Set([...jobs.values()].filter((j) => j.job.scrambleIds.some((id) => ids.has(id))).map((j) => j.job.matchId));
      const done = new Set<number>();
      for (const m of matches) for (const r of await store.listSummaries(m)) if (r.bot === bot && ids.has(r.scrambleId)) done.add(r.scrambleId);
      return done;
    },
    async finishIfComplete(matchId, o = {}) {
      const match = await store.getMatch(matchId);
      if (!match) return false;
      if (match.status === 'finished') return true;
      // Oracle jobs waiting or held always hold the finish back; waiting plays only for the cheap check.
      if (ofMatch(matchId, 'optima').some((j) => j.state !== 'done')) return false;
      if (o.unlessQueued && ofMatch(matchId).some((j) => j.state === 'waiting')) return false;
      if (match.status !== 'running' || (await missing(matchId)) > 0) return false;
      await store.setMatchStatus(matchId, 'finished');
      for (const j of ofMatch(matchId)) if (j.state === 'waiting') jobs.delete(j.job.id);
      return true;
    },
    async listWorkers(options) {
      const out: WorkerRecord[] = [];
      for (const w of workers.values()) {
        if (!options.includeStopped && !live(w, options)) continue;
        out.push({
          ...w.info,
          id: w.id,
          startedAt: new Date(w.startedAt).toISOString(),
          heartbeatAt: new Date(w.heartbeatAt).toISOString(),
          silentSeconds: (now() - w.heartbeatAt) / 1000,
          ...(w.stoppedAt !== undefined ? { stoppedAt: new Date(w.stoppedAt).toISOString(), stopReason: w.stopReason ?? '' } : {}),
          jobs: [...held.values()]
            .filter((h) => h.workerId === w.id)
            .map((h) => {
              const j = jobs.get(h.jobId)!.job;
              return { jobId: j.id, matchId: j.matchId, bot: j.bot, scrambles: j.scrambleIds.length, startedAt: new Date(h.startedAt).toISOString() };
            }),
        });
      }
      return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id));
    },
    async matchJobs(matchId, liveness) {
      const mine = [...queues.values()].filter((q) => q.matchId === matchId);
      if (mine.length === 0) return undefined;
      const match = await store.getMatch(matchId);
      const total = match ? (await store.listScrambles(matchId)).length * match.bots.length : 0;
      const names = (pred: (w: MemWorker) => boolean) => [...new Set([...workers.values()].filter(pred).map((w) => w.info.name))].sort();
      const failed = failures.filter((f) => f.matchId === matchId);
      return {
        results: total - Math.max(0, await missing(matchId)),
        total,
        queued: ofMatch(matchId).filter((j) => j.state === 'waiting').length,
        active: ofMatch(matchId).filter((j) => j.state === 'active').length,
        completed: mine.reduce((a, q) => a + q.completed, 0),
        failed: failed.length,
        failures: failed.map((f) => f.reason).reverse().slice(0, 3),
        refusals: [...refusals.values()].filter((r) => r.matchId === matchId).map(({ bot, worker, reason }) => ({ bot, worker, reason })),
        liveWorkers: names((w) => live(w, liveness)),
        silentWorkers: names((w) => w.stoppedAt === undefined && !live(w, liveness)),
      } satisfies MatchJobs;
    },
    async close() {},
  };
}
