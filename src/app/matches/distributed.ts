/**
 * Distributed matches: the match and its scrambles are created here, its plays are cut into jobs (a batch
 * of scrambles for one bot) on the PostgreSQL work queue, and `arena worker` processes on any number of
 * machines play them. This side only plans and watches: following a match reads its progress from the
 * database, so the watcher can go away (Ctrl-C) and come back (`arena show`) while the workers go on.
 */
import type { Result } from '../../core/types.ts';
import { reject } from '../../core/types.ts';
import { type MatchConfig, parseMatchConfig, startTimeoutMs } from '../../referee/match-config.ts';
import { planPlays, playedKeys, type Play } from '../../referee/plan.ts';
import { ORACLE_PENDING } from '../../referee/refine-bounds.ts';
import { createMatchWith } from '../../referee/run-match.ts';
import { generateScrambles } from '../../referee/scrambles/scrambles.ts';
import { storedSprt } from '../../referee/sprt-watch.ts';
import { optimaOwed } from '../../referee/decide/match-fate.ts';
import { QueueDecider, queueOptima } from '../../referee/decide/queue-decider.ts';
import { resumable } from '../../referee/decide/resume-check.ts';
import { sleepUnlessAborted } from '../../core/abortable-sleep.ts';
import { SlidingOracle } from '../../solvers/sliding/oracle.ts';
import { hasWorkQueue, NEEDS_PG, openWorkQueue } from '../../store/open.ts';
import type { MatchRecord } from '../../store/types.ts';
import type { MatchJobs, WorkerRecord, WorkQueue } from '../../store/work-queue.ts';
import { resolveBot } from '../bots/bot-registry.ts';
import type { AppContext } from '../context.ts';
import { prepareMatch, type StartMatchOptions } from './matches.ts';
import { checkPlayable } from './playable.ts';

export type { WorkerRecord } from '../../store/work-queue.ts';

/** How a distributed match is cut into jobs. */
export interface DistributeOptions {
  /** Scrambles per job; default sized so a job's worst case (every scramble at the time limit) is ~a minute. */
  readonly batch?: number;
  /** Warnings before the match is queued (a bot that declines part of it). */
  notice?(text: string): void;
}

/** The longest a job should take when every scramble runs to its time limit. */
const TARGET_JOB_MS = 60_000;
const MAX_BATCH = 200;

/** Liveness all watchers and workers agree on (src/worker's default dead-after time). */
export const DEFAULT_LIVENESS = { deadAfterSeconds: 30 } as const;

/** A distributed match put on the queue. */
export interface Distributed {
  readonly match: MatchRecord;
  readonly jobs: number;
  readonly batch: number;
}

/** Scrambles per job: a job should take seconds to a minute, and a small match should still spread out. */
export function batchSize(config: Pick<MatchConfig, 'timeLimitMs' | 'count'>, requested?: number): number {
  if (requested !== undefined) return requested;
  const byTime = Math.floor(TARGET_JOB_MS / config.timeLimitMs);
  const spread = Math.ceil(config.count / 8);
  return Math.max(1, Math.min(MAX_BATCH, byTime, spread));
}

/**
 * How long a worker may hold a job before the queue gives it to another: the job's worst case (start, then
 * every scramble to its limit, restarts included) with room to spare. A crashed worker's jobs come back
 * sooner, through the heartbeat; this lease only catches a worker that hangs while still beating.
 */
export function leaseSeconds(config: Pick<MatchConfig, 'timeLimitMs'>, batch: number): number {
  const worstMs = batch * (config.timeLimitMs + startTimeoutMs(config));
  return Math.min(23 * 3600, Math.ceil((2 * worstMs) / 1000) + 60);
}

/** Jobs of the plays: consecutive scrambles of one bot, bots interleaved so all advance together. */
export function cutJobs(plays: readonly Play[], batch: number): Array<{ bot: string; scrambleIds: number[] }> {
  const byBot = new Map<string, number[]>();
  for (const p of plays) byBot.set(p.bot, [...(byBot.get(p.bot) ?? []), p.scramble.id]);
  const perBot = [...byBot].map(([bot, ids]) => {
    const out: Array<{ bot: string; scrambleIds: number[] }> = [];
    for (let i = 0; i < ids.length; i += batch) out.push({ bot, scrambleIds: ids.slice(i, i + batch) });
    return out;
  });
  const jobs: Array<{ bot: string; scrambleIds: number[] }> = [];
  for (let k = 0; perBot.some((b) => k < b.length); k++) for (const b of perBot) if (k < b.length) jobs.push(b[k]);
  return jobs;
}

/**
 * Queues what a match is missing: the plays without a result, cut into jobs, and one oracle job per
 * scramble still waiting for its exact optimum; a match whose SPRT has decided wants no more plays, and is
 * owed only the optima of the scrambles it played (the decider's rule, match-fate.ts). The same for a new
 * match and a resumed one.
 */
async function queueMissing(ctx: AppContext, queue: WorkQueue, match: MatchRecord, config: MatchConfig, requested: number | undefined): Promise<{ jobs: number; batch: number }> {
  const scrambles = await ctx.store.listScrambles(match.id);
  const results = await ctx.store.listSummaries(match.id);
  const decided = storedSprt(config, results)?.decision;
  const plays = decided ? [] : planPlays(match.bots, scrambles, playedKeys(results));
  const batch = batchSize(config, requested);
  let jobs = await queue.enqueue(match.id, cutJobs(plays, batch), { leaseSeconds: leaseSeconds(config, batch) });
  const pending = decided ? optimaOwed(scrambles, results) : scrambles.filter((s) => s.boundNote === ORACLE_PENDING);
  jobs += await queueOptima(queue, match.id, pending.map((s) => s.id));
  return { jobs, batch };
}

async function withQueue<T>(ctx: AppContext, fn: (q: WorkQueue) => Promise<Result<T>>): Promise<Result<T>> {
  let queue: WorkQueue;
  try {
    queue = await openWorkQueue(ctx.store, { supervise: false });
  } catch (err) {
    return reject('no-queue', (err as Error).message);
  }
  try {
    return await fn(queue);
  } finally {
    await queue.close();
  }
}

/** Checks that every bot can be played on workers: known here, and not a remote bot. */
async function checkBots(ctx: AppContext, bots: readonly string[]): Promise<Result<void>> {
  for (const b of bots) {
    const r = await resolveBot(ctx, b);
    if (!r.ok) return r;
    if (r.value.source === 'remote') return reject('remote', `bot ${b} is remote: it dials one referee, so it plays only matches run with --listen, not on workers`);
  }
  return { ok: true, value: undefined };
}

/** Creates a match with its scrambles and puts all its plays on the queue. */
export async function startDistributedMatch(ctx: AppContext, o: StartMatchOptions, d: DistributeOptions = {}): Promise<Result<Distributed>> {
  if (!hasWorkQueue(ctx.store)) return reject('no-queue', NEEDS_PG);
  const prepared = prepareMatch(o);
  if (!prepared.ok) return prepared;
  const { config } = prepared.value;
  const bots = await checkBots(ctx, config.bots);
  if (!bots.ok) return bots;
  // Before any scramble is made: refused at once when no bot can play it.
  const playable = await checkPlayable(ctx, config, prepared.value.states, d.notice);
  if (!playable.ok) return playable;
  // Workers on other machines read every scramble from the database, so all are made now.
  const states = prepared.value.states ? { ok: true as const, value: prepared.value.states } : generateScrambles(config.spec!, config.count, config.seed, config.walk);
  if (!states.ok) return states;
  return withQueue(ctx, async (queue) => {
    // Scrambles the exact oracle can improve are marked for it, as a local match marks them.
    const oracle = ctx.oracle?.() ?? new SlidingOracle();
    const match = await createMatchWith(ctx.store, config, states.value, oracle).finally(() => oracle.close());
    return { ok: true, value: { match, ...(await queueMissing(ctx, queue, match, config, d.batch)) } };
  });
}

/**
 * Puts what a match is missing back on the queue (after its jobs ran out of retries, it was stopped, or it
 * was started locally and killed): earlier jobs are dropped, refusals forgotten, the missing plays re-cut.
 */
export async function resumeDistributedMatch(ctx: AppContext, id: number, d: DistributeOptions = {}): Promise<Result<Distributed>> {
  if (!hasWorkQueue(ctx.store)) return reject('no-queue', NEEDS_PG);
  const found = await resumable(ctx.store, id);
  if (!found.ok) return found;
  const { match, config } = found.value;
  const bots = await checkBots(ctx, match.bots);
  if (!bots.ok) return bots;
  return withQueue(ctx, async (queue) => {
    await queue.cancelMatch(id);
    // A test that decided before the match was stopped queues only the optima it owes, as a local resume proves them.
    const queued = await queueMissing(ctx, queue, match, config, d.batch);
    await ctx.store.setMatchStatus(id, 'running');
    if (queued.jobs === 0) await new QueueDecider({ queue, store: ctx.store }).afterJob(id, config, {});
    return { ok: true, value: { match: (await ctx.store.getMatch(id))!, ...queued } };
  });
}

/** Where a distributed match stands. */
export interface DistributedProgress extends MatchJobs {
  readonly status: MatchRecord['status'];
  /** Why the match is not moving, in plain words (no workers, every worker refused a bot, failed jobs). */
  readonly stalled: readonly string[];
}

/** The progress of a distributed match; `undefined` value when the match is not distributed. */
export async function distributedProgress(ctx: AppContext, id: number): Promise<Result<DistributedProgress | undefined>> {
  const match = await ctx.store.getMatch(id);
  if (!match) return reject('no-match', `no match with id ${id}`);
  if (!hasWorkQueue(ctx.store)) return { ok: true, value: undefined };
  return withQueue(ctx, (queue) => progressOf(queue, match));
}

/** What a match page shows of a distributed match: its progress and the live workers, with their jobs. */
export interface DistributedView {
  readonly progress: DistributedProgress;
  readonly workers: readonly WorkerRecord[];
}

/** The distributed side of a match for its page; `undefined` value when the match is not distributed. */
export async function distributedView(ctx: AppContext, id: number): Promise<Result<DistributedView | undefined>> {
  const match = await ctx.store.getMatch(id);
  if (!match) return reject('no-match', `no match with id ${id}`);
  if (!hasWorkQueue(ctx.store)) return { ok: true, value: undefined };
  return withQueue(ctx, async (queue): Promise<Result<DistributedView | undefined>> => {
    const progress = await progressOf(queue, match);
    if (!progress.ok || !progress.value) return progress.ok ? { ok: true, value: undefined } : progress;
    return { ok: true, value: { progress: progress.value, workers: await queue.listWorkers(DEFAULT_LIVENESS) } };
  });
}

async function progressOf(queue: WorkQueue, match: MatchRecord): Promise<Result<DistributedProgress | undefined>> {
  const jobs = await queue.matchJobs(match.id, DEFAULT_LIVENESS);
  if (!jobs) return { ok: true, value: undefined };
  return { ok: true, value: { ...jobs, status: match.status, stalled: stalledBecause(match, jobs) } };
}

/** Plain reasons a running match makes no progress. */
export function stalledBecause(match: MatchRecord, jobs: MatchJobs): string[] {
  if (match.status !== 'running' || jobs.results >= jobs.total) return [];
  const why: string[] = [];
  const waiting = jobs.queued + jobs.active > 0;
  if (waiting && jobs.liveWorkers.length === 0) {
    // Workers that only could not beat (the database was unreachable) are not called gone.
    const silent = jobs.silentWorkers;
    why.push(
      silent.length > 0
        ? `no heartbeat lately from ${silent.join(', ')}: not gone, but unable to reach the database; waiting for them to beat again`
        : 'no live worker: start one on any machine with arena worker --db <this database>',
    );
  }
  for (const bot of match.bots) {
    const refused = jobs.refusals.filter((r) => r.bot === bot);
    if (waiting && jobs.liveWorkers.length > 0 && jobs.liveWorkers.every((w) => refused.some((r) => r.worker === w))) {
      why.push(`no live worker can start ${bot}: ${refused.map((r) => `${r.worker}: ${r.reason}`).join('; ')}`);
    }
  }
  if (jobs.failed > 0 && !waiting) {
    why.push(`${jobs.failed} job(s) failed after every retry (${jobs.failures.join('; ')}); arena match --resume ${match.id} --distributed queues what is missing`);
  }
  return why;
}

/** How following a match ended. */
export type FollowEnd = 'finished' | 'stopped' | 'detached';

/**
 * Watches a distributed match until it finishes, is stopped, or `signal` aborts (the watcher leaves; the
 * match goes on). `onProgress` is called about every `pollMs`; a database hiccup is reported and waited out.
 */
export async function followMatch(
  ctx: AppContext,
  id: number,
  io: { readonly signal: AbortSignal; onProgress(p: DistributedProgress): void; onError?(message: string): void; readonly pollMs?: number },
): Promise<Result<FollowEnd>> {
  return withQueue(ctx, async (queue) => {
    // The watcher decides too (the same decider as the workers): a match whose last job ended on a worker
    // that died before deciding is still finished, and what a decided match still owes is queued.
    const decider = new QueueDecider({ queue, store: ctx.store });
    while (!io.signal.aborted) {
      try {
        const match = await ctx.store.getMatch(id);
        if (!match) return reject('no-match', `no match with id ${id}`);
        const p = await progressOf(queue, match);
        if (!p.ok) return p;
        if (!p.value) {
          // Nothing of it on the queue: a match resumed with nothing left to play or prove (a local match killed
          // after its last proof, before it was marked finished) is finished, or decided now; any other is not
          // distributed.
          if (match.status === 'finished') return { ok: true, value: 'finished' };
          const config = parseMatchConfig(match.config);
          if (config.ok && (await decider.afterJob(id, config.value, {})).some((e) => e.type === 'finished')) return { ok: true, value: 'finished' };
          return reject('not-distributed', `match ${id} is not a distributed match`);
        }
        io.onProgress(p.value);
        if (match.status === 'finished') return { ok: true, value: 'finished' };
        if (match.status === 'interrupted') return { ok: true, value: 'stopped' };
        // An SPRT is read from every result: for one, only once nothing waits or runs (until then a worker's
        // job is still to end, and that worker decides).
        const config = parseMatchConfig(match.config);
        const idle = p.value.queued + p.value.active === 0;
        if (config.ok && (idle || !config.value.sprt) && (await decider.afterJob(id, config.value, {})).some((e) => e.type === 'finished')) return { ok: true, value: 'finished' };
      } catch (err) {
        io.onError?.((err as Error).message.split('\n')[0]);
      }
      await sleepUnlessAborted(io.pollMs ?? 1000, io.signal);
    }
    return { ok: true, value: 'detached' };
  });
}

/** Registered workers: live ones, or all with `all`. */
export async function listWorkers(ctx: AppContext, o: { all?: boolean } = {}): Promise<Result<WorkerRecord[]>> {
  return withQueue(ctx, async (queue) => ({ ok: true, value: await queue.listWorkers({ ...DEFAULT_LIVENESS, includeStopped: o.all ?? false }) }));
}
