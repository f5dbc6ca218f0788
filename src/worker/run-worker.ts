/**
 * `arena worker`: one machine's worker process. It registers with the distributed queue, reports a heartbeat
 * every few seconds, and plays jobs until told to stop; stopping hands unfinished jobs back at once. The
 * heartbeat is what makes a crash cheap: a worker that stops beating (SIGKILL, power loss, a cut cable) is
 * declared dead by the next live worker after `deadAfterSeconds`, and its jobs go to others; what it had
 * already recorded stays, and only the scrambles without a result are played again.
 *
 * Beside its jobs a worker builds submitted bots (issue 32, Build 7): the same build queue `arena serve`
 * runs, one build at a time, each submission claimed by exactly one process on the database.
 */
import { sleepUnlessAborted } from '../core/abortable-sleep.ts';
import type { Result } from '../core/types.ts';
import { reject } from '../core/types.ts';
import type { AppContext } from '../app/context.ts';
import { DEFAULT_LIVENESS } from '../app/matches/distributed.ts';
import { openWorkerSession, type WorkerEvent, type WorkerSettings } from '../app/matches/worker-session.ts';
import { runSubmissionBuilds, type BuildEvent } from '../app/submissions/submissions.ts';

/** Worker timing defaults: a dead worker's jobs come back within about half a minute. */
export const WORKER_DEFAULTS = { heartbeatSeconds: 5, deadAfterSeconds: DEFAULT_LIVENESS.deadAfterSeconds } as const;

/** How `arena worker` runs. */
export interface WorkerOptions extends Partial<WorkerSettings> {
  readonly concurrency: number;
  /** Seconds between heartbeats; keep well below `deadAfterSeconds`. */
  readonly heartbeatSeconds?: number;
  /** Build submitted bots beside the jobs (default true; `--no-builds` turns it off). */
  readonly builds?: boolean;
  /** How often the idle build queue looks for a submission (default 1 s). */
  readonly buildPollMs?: number;
}

/** What the worker did, when it stops. */
export interface WorkerSummary {
  readonly name: string;
  readonly results: number;
  readonly jobs: number;
}

/** Events a worker reports, including heartbeat trouble. */
export type WorkerRunEvent =
  | WorkerEvent
  | { readonly type: 'heartbeat-failed'; readonly message: string }
  | ({ readonly type: 'build' } & BuildEvent);

/** How long the build queue waits after a database error (the server restarting) before it looks again. */
const BUILD_RETRY_MS = 5000;

/** The build queue until `signal` aborts; a database error is reported and the queue resumes, as the jobs do. */
async function buildUntilStopped(ctx: AppContext, o: WorkerOptions, signal: AbortSignal, onEvent: (e: WorkerRunEvent) => void): Promise<void> {
  while (!signal.aborted) {
    try {
      await runSubmissionBuilds(ctx, { signal, ...(o.buildPollMs !== undefined ? { pollMs: o.buildPollMs } : {}), onBuild: (e) => onEvent({ type: 'build', ...e }) });
    } catch (err) {
      onEvent({ type: 'db-error', message: `builds: ${String((err as Error).message ?? err).split('\n')[0]}` });
      await sleepUnlessAborted(BUILD_RETRY_MS, signal);
    }
  }
}

/** Runs a worker until `signal` aborts. */
export async function runWorkerProcess(
  ctx: AppContext,
  o: WorkerOptions,
  io: { readonly signal: AbortSignal; onEvent?(e: WorkerRunEvent): void },
): Promise<Result<WorkerSummary>> {
  const heartbeatSeconds = o.heartbeatSeconds ?? WORKER_DEFAULTS.heartbeatSeconds;
  const deadAfterSeconds = o.deadAfterSeconds ?? WORKER_DEFAULTS.deadAfterSeconds;
  if (heartbeatSeconds * 2 > deadAfterSeconds) {
    return reject('bad-timing', `the heartbeat (${heartbeatSeconds} s) must be at most half of the dead-after time (${deadAfterSeconds} s)`);
  }
  let results = 0;
  let jobs = 0;
  const onEvent = (e: WorkerRunEvent) => {
    if (e.type === 'result') results++;
    if (e.type === 'completed') jobs++;
    io.onEvent?.(e);
  };
  const opened = await openWorkerSession(ctx, { ...o, deadAfterSeconds }, onEvent);
  if (!opened.ok) return opened;
  const session = opened.value;

  // One heartbeat at a time: a slow one (the server restarting) must not pile up behind itself.
  let beating = false;
  const beat = async () => {
    if (beating) return;
    beating = true;
    try {
      await session.heartbeat();
    } catch (err) {
      onEvent({ type: 'heartbeat-failed', message: (err as Error).message.split('\n')[0] });
    } finally {
      beating = false;
    }
  };
  const timer = setInterval(() => void beat(), heartbeatSeconds * 1000);
  // The builds stop with the jobs: either one ending (the signal, or play failing) ends the other.
  const stopBuilds = new AbortController();
  const onAbort = () => stopBuilds.abort();
  io.signal.addEventListener('abort', onAbort, { once: true });
  const builds = o.builds === false ? Promise.resolve() : buildUntilStopped(ctx, o, stopBuilds.signal, onEvent);
  try {
    await beat();
    await session.play(io.signal);
  } finally {
    stopBuilds.abort();
    io.signal.removeEventListener('abort', onAbort);
    await builds;
    clearInterval(timer);
    await session.close(io.signal.aborted ? 'stopped by its operator' : 'stopped').catch((err) =>
      onEvent({ type: 'db-error', message: `could not deregister: ${(err as Error).message.split('\n')[0]}` }),
    );
  }
  return { ok: true, value: { name: session.name, results, jobs } };
}
