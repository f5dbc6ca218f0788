/**
 * One worker machine's session with the distributed queue: registered under a name with its host and CPU
 * model, it plays jobs with the referee's own worker code (the same runPlayer that plays a local match, fed
 * by a {@link QueueJobSource}), starting bots locally, and writes each result with its name and CPU model.
 * A job for a bot this machine cannot start goes back to the queue for another machine. src/worker runs a
 * session (heartbeat timing, signals); this file composes it.
 */
import os from 'node:os';
import type { CappedText } from '../../core/capped-text.ts';
import type { Result } from '../../core/types.ts';
import { reject } from '../../core/types.ts';
import type { BotLauncher } from '../../protocol/link.ts';
import { StartGuard } from '../../referee/start-guard.ts';
import type { LaunchOptions } from '../../referee/launch-key.ts';
import { runPlayer, type Recorded } from '../../referee/player.ts';
import type { OptimumOracle } from '../../solvers/oracle.ts';
import { SlidingOracle } from '../../solvers/sliding/oracle.ts';
import { openWorkQueue } from '../../store/open.ts';
import type { WorkQueue } from '../../store/work-queue.ts';
import { startArenaServer, type ArenaServer } from '../../transport/ws-server.ts';
import { assetNotifier } from '../bots/bot-assets.ts';
import { resolveBot, type ResolvedBot } from '../bots/bot-registry.ts';
import type { AppContext } from '../context.ts';
import { corePins, pinReferee, type CorePins } from '../launch/cores.ts';
import { launchBot } from '../launch/launch-bot.ts';
import { launchPlanOf } from '../launch/launch-plan.ts';
import { QueueJobSource, type SourceEvent } from '../../referee/queue-job-source.ts';
import { decideJob } from '../launch/sandbox-policy.ts';

/** How a worker is set up. */
export interface WorkerSettings {
  /** Shown in `arena workers` and stored with every result; default `<host>-<pid>`. */
  readonly name?: string;
  /** Jobs played at once, each with its own bot processes. */
  readonly concurrency: number;
  /** A worker silent this long is dead and its jobs go to others (all workers must agree on it). */
  readonly deadAfterSeconds: number;
  /** Longest idle wait between polls of the queue, ms. */
  readonly maxPollMs?: number;
  /** The operator accepts to run registered bots unconfined, for matches stored so (sandbox-policy.ts). */
  readonly unconfined?: boolean;
}

/** Everything a worker tells its operator. */
export type WorkerEvent =
  | SourceEvent
  | { readonly type: 'registered'; readonly id: number; readonly name: string; readonly cpu: string }
  | { readonly type: 'notice'; readonly message: string }
  | { readonly type: 'result'; readonly matchId: number; readonly bot: string; readonly scrambleIndex: number; readonly verdict: string; readonly moves: number; readonly wallMs: number };

/** A registered worker. */
export interface WorkerSession {
  readonly name: string;
  readonly cpu: string;
  /** Plays jobs with `concurrency` players until `signal` aborts; jobs in flight are handed back. */
  play(signal: AbortSignal): Promise<void>;
  /**
   * Reports liveness (and hands back dead workers' jobs). If this worker was itself declared dead (it was
   * cut off longer than the dead-after window), it registers again and says so.
   */
  heartbeat(): Promise<'alive' | 're-registered'>;
  /** Deregisters (unfinished jobs go back at once) and releases the queue and the local bot server. */
  close(reason: string): Promise<void>;
}

/** The machine's name and CPU model, as stored with results. */
export function machineInfo(): { host: string; cpu: string } {
  const cpus = os.cpus();
  const model = cpus[0]?.model.trim() || os.arch();
  return { host: os.hostname(), cpu: `${model} (${cpus.length} cores)` };
}

/** Connects to the queue of `ctx`'s database and registers a worker. */
export async function openWorkerSession(ctx: AppContext, s: WorkerSettings, onEvent: (e: WorkerEvent) => void): Promise<Result<WorkerSession>> {
  let queue: WorkQueue;
  try {
    queue = await openWorkQueue(ctx.store, { supervise: true, onError: (err) => onEvent({ type: 'db-error', message: err.message.split('\n')[0] }) });
  } catch (err) {
    return reject('no-queue', (err as Error).message);
  }
  const { host, cpu } = machineInfo();
  const name = s.name ?? `${host}-${process.pid}`;
  const info = { name, host, cpu, pid: process.pid, concurrency: s.concurrency };
  let id: number;
  let server: ArenaServer;
  try {
    id = await queue.registerWorker(info);
    // Bots started here dial this loopback server with one-time tokens; no remote bot is admitted.
    server = await startArenaServer({ host: '127.0.0.1', port: 0, authenticate: () => undefined });
  } catch (err) {
    await queue.close().catch(() => undefined);
    return reject('no-queue', `cannot register the worker: ${(err as Error).message.split('\n')[0]}`);
  }
  onEvent({ type: 'registered', id, name, cpu });

  const sources: QueueJobSource[] = [];
  // The exact oracle of this machine, for oracle jobs (its thread starts only when one is asked for).
  const oracle: OptimumOracle = ctx.oracle?.() ?? new SlidingOracle();
  // Cores of each player, worked out when the first match that asks for pinning is played here.
  let pins: CorePins | undefined | null = null;
  const pinsOf = (opts: LaunchOptions): { pins?: CorePins } => {
    // The bots are not known beforehand: each player gets an equal share, each bot as much of it as it declares.
    // The worker is the referee of its jobs and runs its oracle: both move to the referee's cores for good.
    if (opts.affinity && pins === null) {
      pins = corePins(s.concurrency, true, undefined, (message) => onEvent({ type: 'notice', message })).pins;
      if (pins) pinReferee(pins, oracle);
    }
    return pins ? { pins } : {};
  };
  const resolved = new Map<string, Promise<Result<ResolvedBot>>>();
  const resolve = (bot: string) => {
    let r = resolved.get(bot);
    if (!r) resolved.set(bot, (r = resolveBot(ctx, bot)));
    return r;
  };
  /** A launcher that resolves the bot on this machine first: an unknown or remote bot fails to start. */
  const makeLauncher = (bot: string, opts: LaunchOptions): BotLauncher => {
    let inner: BotLauncher | undefined;
    return {
      name: bot,
      async connect() {
        const r = await resolve(bot);
        if (!r.ok) return reject('no-bot', `${r.reason} on this machine`);
        if (r.value.source === 'remote') return reject('remote', 'a remote bot dials one referee; play it with arena match --listen, not on workers');
        // Confined unless the match is stored unconfined (and then registered bots need our --no-sandbox).
        const sandbox = decideJob(r.value, opts.unconfined === true, s.unconfined === true);
        if (!sandbox.ok) return reject('sandbox', `${bot} cannot start on this worker: ${sandbox.reason}`);
        // The launch plan of the job's limits, derived as a local match derives it: the same memory limit,
        // CPU backstop, disk budget and start timeout for the same match on any machine of the same size.
        inner ??= launchBot(r.value, launchPlanOf({ ...opts, unconfined: !sandbox.value.confined }), { server, ctx, ...pinsOf(opts) }, opts.player);
        return inner.connect();
      },
      async dispose() {
        await inner?.dispose();
      },
    };
  };

  // A job whose built-in bot lacks its prepared tables on this machine: named when the job is taken (once
  // per bot and asset for the session), with the command that builds them here; the job is played anyway.
  const assets = assetNotifier(ctx.projectRoot, (message) => onEvent({ type: 'notice', message }));
  const sourceEvent = (e: SourceEvent) => {
    onEvent(e);
    if (e.type === 'took' && e.job.task !== 'optima') assets.tell([e.job.bot], e.classes);
  };

  let closed = false;
  return {
    ok: true,
    value: {
      name,
      cpu,
      async play(signal) {
        const source = new QueueJobSource({ queue, store: ctx.store, oracle, workerId: () => id, workerName: name, signal, maxPollMs: s.maxPollMs, onEvent: sourceEvent });
        // Stopping the worker stops its oracle: an oracle job cut short goes back to the queue.
        const stopOracle = () => void oracle.close();
        signal.addEventListener('abort', stopOracle, { once: true });
        sources.push(source);
        const store = { recordResult: (r: Parameters<typeof ctx.store.recordResult>[0]) => ctx.store.recordResult({ ...r, worker: name, cpu }) };
        const onRecorded = ({ job, scramble, outcome }: Recorded) =>
          onEvent({ type: 'result', matchId: job.matchId, bot: job.bot, scrambleIndex: scramble.index, verdict: outcome.verdict, moves: outcome.moveCount, wallMs: outcome.wallMs });
        // Timed solves hold the oracle, as in a local match, so it never takes a core from a bot being timed.
        const hold = oracle.hold ? { hold: () => oracle.hold!() } : {};
        const keepStderr = (matchId: number, bot: string, text: CappedText) => ctx.store.stderrs().append(matchId, bot, text);
        const deps = { store, clock: ctx.clock, signal, makeLauncher, starts: new StartGuard(), onStartFailure: 'refuse' as const, onRecorded, keepStderr, keepStderrEachJob: true, ...hold };
        await Promise.all(Array.from({ length: s.concurrency }, (_, player) => runPlayer(source, { ...deps, player })));
      },
      async heartbeat() {
        const holding = sources.flatMap((src) => src.holding());
        if (await queue.heartbeat(id, holding, { deadAfterSeconds: s.deadAfterSeconds })) return 'alive';
        id = await queue.registerWorker(info);
        onEvent({ type: 'registered', id, name, cpu });
        return 're-registered';
      },
      async close(reason) {
        if (closed) return;
        closed = true;
        try {
          await queue.stopWorker(id, reason);
        } finally {
          await oracle.close();
          await server.close();
          await queue.close();
        }
      },
    },
  };
}
