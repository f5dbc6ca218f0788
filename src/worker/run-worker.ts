/**
 * `arena worker`: one machine's worker process. It registers with the distributed queue, reports a heartbeat
 * every few seconds, and plays jobs until told to stop; stopping hands unfinished jobs back at once. The
 * heartbeat is what makes a crash cheap: a worker that stops beating (SIGKILL, power loss, a cut cable) is
 * declared dead by the next live worker after `deadAfterSeconds`, and its jobs go to others; what it had
 * already recorded stays, and only the scrambles without a result are played again.
 */
import type { Result } from '../core/types.ts';
import { reject } from '../core/types.ts';
import type { AppContext } from '../app/context.ts';
import { DEFAULT_LIVENESS } from '../app/matches/distributed.ts';
import { openWorkerSession, type WorkerEvent, type WorkerSettings } from '../app/matches/worker-session.ts';

/** Worker timing defaults: a dead worker's jobs come back within about half a minute. */
export const WORKER_DEFAULTS = { heartbeatSeconds: 5, deadAfterSeconds: DEFAULT_LIVENESS.deadAfterSeconds } as const;

/** How `arena worker` runs. */
export interface WorkerOptions extends Partial<WorkerSettings> {
  readonly concurrency: number;
  /** Seconds between heartbeats; keep well below `deadAfterSeconds`. */
  readonly heartbeatSeconds?: number;
}

/** What the worker did, when it stops. */
export interface WorkerSummary {
  readonly name: string;
  readonly results: number;
  readonly jobs: number;
}

/** Events a worker reports, including heartbeat trouble. */
export type WorkerRunEvent = WorkerEvent | { readonly type: 'heartbeat-failed'; readonly message: string };

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
  try {
    await beat();
    await session.play(io.signal);
  } finally {
    clearInterval(timer);
    await session.close(io.signal.aborted ? 'stopped by its operator' : 'stopped').catch((err) =>
      onEvent({ type: 'db-error', message: `could not deregister: ${(err as Error).message.split('\n')[0]}` }),
    );
  }
  return { ok: true, value: { name: session.name, results, jobs } };
}
