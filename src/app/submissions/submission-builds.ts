/**
 * The build queue: received submissions, oldest first, each taken by exactly one builder (the store's
 * claimNext), built through materializeVersion (the same path a worker uses for a version it never saw),
 * then registered as the command bot `alice/astar` (replacing its previous version) with a snapshot of its
 * build, as `bot add` registers one. The running ladder then sees a new version, checks and places it; the
 * submission's later statuses are read from that version (submission-views.ts).
 */
import { sleepUnlessAborted } from '../../core/abortable-sleep.ts';
import type { Result } from '../../core/types.ts';
import { ok, reject } from '../../core/types.ts';
import type { SubmissionRecord } from '../../store/submission-types.ts';
import { resolveBot } from '../bots/bot-registry.ts';
import { rivalFolders, takeBotSnapshot } from '../bots/bot-snapshot.ts';
import { materializeVersion } from '../bots/materialize-version.ts';
import type { AppContext } from '../context.ts';
import { versionOf } from '../ladder/ladder-versions.ts';
import { ownerOf } from './submission-names.ts';
import type { SubmissionSettings } from './submission-settings.ts';

const now = (): string => new Date().toISOString();

/**
 * A build `building` for longer than this lost its builder (a build is stopped at its time limit, 120 s by
 * default, long before): it is queued again.
 */
const STALE_MS = 15 * 60_000;

/**
 * Builds one claimed submission and registers its bot. Its status afterwards: `checking` (registered; the
 * ladder takes it from here), `failed` with the reason and the build log, or `received` again when
 * `signal` stopped the build (it is built again by the next run).
 */
export async function buildSubmission(ctx: AppContext, sub: SubmissionRecord, settings: SubmissionSettings, signal?: AbortSignal): Promise<Result<void>> {
  const store = ctx.store.submissions();
  const built = await materializeVersion(ctx, sub.version, { builder: settings.builder, intake: settings.intake, ...(signal ? { signal } : {}) });
  if (!built.ok) {
    if (signal?.aborted) {
      await store.update(sub.id, { status: 'received', reason: 'its build was stopped; it is built again when the server runs' }, now());
      return built;
    }
    await store.update(sub.id, { status: 'failed', reason: built.reason, log: 'log' in built && built.log !== undefined ? built.log : null }, now());
    return built;
  }
  const registered = await register(ctx, sub, built.value.folder, built.value.manifest);
  const log = built.value.log;
  if (!registered.ok) {
    await store.update(sub.id, { status: 'failed', reason: registered.reason, log }, now());
    return registered;
  }
  await store.update(sub.id, { status: 'checking', reason: null, log, ladderHash: registered.value }, now());
  return ok(undefined);
}

/** Registers (or registers again) the submitted bot on its build; returns the ladder's hash of that version. */
async function register(ctx: AppContext, sub: SubmissionRecord, folder: string, manifest: { run: string; transport: 'stdio' | 'websocket' }): Promise<Result<string>> {
  const owner = ownerOf(sub.bot)!;
  const held = await ctx.store.getBot(sub.bot);
  if (held && held.owner !== owner) return reject('forbidden', `a bot named ${sub.bot} was registered meanwhile by someone else`);
  const taken = takeBotSnapshot(ctx, manifest.run, folder, await rivalFolders(ctx, sub.bot));
  if (!taken.ok) return reject(taken.code, `${sub.bot} cannot be registered: ${taken.reason}`);
  await ctx.store.submissions().putBot(
    {
      name: sub.bot,
      kind: 'command',
      cmd: manifest.run,
      cwd: folder,
      ...(manifest.transport === 'stdio' ? { stdio: true } : {}),
      ...(taken.value ?? {}),
      owner,
      source: sub.version,
    },
    now(),
  );
  const resolved = await resolveBot(ctx, sub.bot);
  if (!resolved.ok) return resolved;
  const version = versionOf(resolved.value, ctx.projectRoot);
  return version.ok ? ok(version.value.hash) : version;
}

/** What a builder reports of one submission it took: built and registered, or failed with the reason. */
export interface BuildEvent {
  readonly submission: number;
  readonly bot: string;
  readonly version: string;
  readonly outcome: 'built' | 'failed' | 'stopped';
  readonly reason?: string;
  readonly ms: number;
}

/** How the build loop runs: until `signal` aborts, polling every `pollMs` (default 1 s) when idle; `onBuild` hears each submission taken. */
export interface BuildLoopOptions {
  readonly signal: AbortSignal;
  readonly pollMs?: number;
  onBuild?(e: BuildEvent): void;
}

/**
 * Builds received submissions until `signal` aborts, `settings.buildSlots` at once: each slot claims the
 * oldest received one atomically, so slots, servers and workers never build the same, and a build that runs
 * out its time limit holds one slot, never the others' submissions.
 */
export async function buildLoop(ctx: AppContext, settings: SubmissionSettings, o: BuildLoopOptions): Promise<void> {
  let lastSweep = 0;
  const slot = async (): Promise<void> => {
    while (!o.signal.aborted) {
      if (Date.now() - lastSweep > STALE_MS / 4) {
        lastSweep = Date.now();
        await ctx.store.submissions().requeueStale(new Date(Date.now() - STALE_MS).toISOString(), now());
      }
      const next = await ctx.store.submissions().claimNext(now());
      if (!next) {
        await sleepUnlessAborted(o.pollMs ?? 1000, o.signal);
        continue;
      }
      const started = Date.now();
      const report = (outcome: BuildEvent['outcome'], reason?: string) =>
        o.onBuild?.({ submission: next.id, bot: next.bot, version: next.version, outcome, ...(reason !== undefined ? { reason } : {}), ms: Date.now() - started });
      try {
        const done = await buildSubmission(ctx, next, settings, o.signal);
        if (done.ok) report('built');
        else report(o.signal.aborted ? 'stopped' : 'failed', done.reason);
      } catch (e) {
        // The server keeps building others; this one says why it stopped.
        const reason = `internal error while building: ${String((e as Error).message ?? e).split('\n')[0]}`;
        await ctx.store.submissions().update(next.id, { status: 'failed', reason }, now());
        report('failed', reason);
      }
    }
  };
  await Promise.all(Array.from({ length: settings.buildSlots }, slot));
}
