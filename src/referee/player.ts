import type { CappedText } from '../core/capped-text.ts';
import type { PuzzleState } from '../core/types.ts';
import type { BotLauncher, BotLink, Clock } from '../protocol/link.ts';
import { puzzleOf } from '../puzzles/index.ts';
import type { ResultRecord, ScrambleRecord, Store } from '../store/types.ts';
import type { Job, JobEnd, JobSource, PlayLimits } from './job-source.ts';
import { launchKey, type LaunchOptions } from './launch-key.ts';
import { ResultWrites } from './result-writes.ts';
import { capabilityGap, solveOne } from './solve-one.ts';
import type { LinkHolder, SharedLinks } from './shared-links.ts';
import { mayKeep, type LinkKeeper } from './link-keeper.ts';
import { DIAL_IN_ATTEMPTS, START_ATTEMPTS, type StartGuard } from './start-guard.ts';
import { PREPARE_TIME_LIMIT_MS, warmRefereeFor, WarmUps, warmUpLimitMs } from './warm-up.ts';

/** What one play concluded: the stored result without its key. */
export type PlayOutcome = Omit<ResultRecord, 'scrambleId' | 'bot'>;

/** One result, recorded. */
export interface Recorded {
  readonly job: Job;
  readonly scramble: ScrambleRecord;
  readonly outcome: PlayOutcome;
}

/** What a player is handed. */
export interface PlayerDeps {
  /**
   * Where results go. Each is committed, in order (a fast bot's several at once), after the next solve has
   * been sent (see result-writes.ts), and before it is reported through onRecorded.
   */
  readonly store: Pick<Store, 'recordResult' | 'recordResults'>;
  readonly clock: Clock;
  /** Aborting stops the player: the request in flight is cancelled and nothing is recorded for it. */
  readonly signal?: AbortSignal;
  /** A launcher for a bot; the player asks once per bot and start timeout, so no two players share a process. */
  makeLauncher(bot: string, opts: LaunchOptions): BotLauncher;
  /** The start-failure rule, shared by the players of a match. */
  readonly starts: StartGuard;
  /** This player's number among the process's parallel players (0-based), handed to makeLauncher. */
  readonly player?: number;
  /**
   * Where the players of a match share the link of a bot that is one connection (a launcher marked
   * `single`). Without it every player uses its own launcher, as for bots it starts itself.
   */
  readonly shared?: SharedLinks;
  /**
   * Where bots that may play another match on the same start (link-keeper.ts) are kept when the player
   * stops, and taken from before one is started. Absent: every bot is told bye at the end.
   */
  readonly keeper?: LinkKeeper;
  /**
   * A bot that cannot start: `charge` (a local match, the default) records the play as `crash` (and the
   * start guard stops retrying); `refuse` (a distributed worker) ends the job `refused` with the reason and
   * records nothing, so a machine that can start the bot plays it. A hello that breaks the protocol is
   * charged either way.
   */
  readonly onStartFailure?: 'charge' | 'refuse';
  /**
   * Called as each result is validated, before the player takes its next job (a match's SPRT decides here,
   * so that no job is handed out after it has decided); the result is not committed yet.
   */
  onPlayed?(recorded: Recorded): void;
  /** Called after each result is committed, in the order they were played. */
  onRecorded?(recorded: Recorded): void;
  /**
   * Keeps what a bot wrote to stderr while it played jobs of `matchId` (capped; the store joins the pieces
   * under one cap). Called when a bot process ends, and when a process that played one match plays
   * another. Absent: stderr is not kept.
   */
  keepStderr?(matchId: number, bot: string, text: CappedText): Promise<void>;
  /**
   * Keep stderr at the end of every job too (a worker: its bot processes outlive the job and may never play
   * that match again, so its owner would otherwise wait for the worker to stop). A local match, whose jobs
   * are one scramble each, keeps it when its processes end.
   */
  readonly keepStderrEachJob?: boolean;
  /**
   * Called as each timed solve is sent; the function it returns is called when the solve is over. Work that
   * can wait (the exact oracle) pauses in between, so it never competes with a bot being timed.
   */
  hold?(): () => void;
}

/**
 * One player (a job loop; a "worker" is only the `arena worker` process, which runs several of these): takes
 * jobs from `source` until it has none (or the signal aborts), plays every scramble of
 * each with the job's bot, records each result the moment it is validated, and reports how it left the job.
 * It keeps its own bot processes between jobs (a bot is started once and restarted only after a crash, a
 * time-out or a protocol fault) and closes them all when it stops.
 */
export async function runPlayer(source: JobSource, deps: PlayerDeps): Promise<void> {
  const bots = new PlayerBots(deps);
  const writes = new ResultWrites(deps.store);
  // The next job, taken while this one plays where the source allows it (JobSource.prefetch).
  let taken: Promise<Job | undefined> | undefined;
  try {
    while (!deps.signal?.aborted) {
      writes.check();
      const job = await (taken ?? source.next());
      taken = undefined;
      if (!job) break;
      if (source.prefetch && job.scrambles.length === 1) {
        taken = source.next();
        // Ready to start when this job's answer arrives; a job taken and never played (the player stopped)
        // has no result, and a resume plays it.
        taken.then((next) => next && bots.ahead(next), () => undefined);
      }
      const end = await playJob(job, source, bots, deps, writes);
      if (deps.keepStderrEachJob) bots.keepStderrOf(job.matchId);
      // The job ends once its results are committed; the next job starts meanwhile.
      writes.then(() => source.end(job, end.how, end.reason));
      if (end.how === 'abandoned') break;
    }
  } finally {
    try {
      await writes.drain();
    } finally {
      await bots.dispose();
    }
  }
}

async function playJob(job: Job, source: JobSource, bots: PlayerBots, deps: PlayerDeps, writes: ResultWrites): Promise<{ how: JobEnd; reason?: string }> {
  for (const [k, scramble] of job.scrambles.entries()) {
    await writes.room();
    if (deps.signal?.aborted) return { how: 'abandoned' };
    // A match that no longer wants the job (its SPRT decided) gets no new play; the one just made stands.
    if (k > 0 && source.wanted && !(await source.wanted(job))) return { how: 'withdrawn' };
    writes.check();
    const outcome = await bots.play(job, scramble);
    if (!outcome) return { how: 'abandoned' };
    if ('refused' in outcome) return { how: 'refused', reason: outcome.refused };
    const recorded: Recorded = { job, scramble, outcome };
    deps.onPlayed?.(recorded);
    writes.add({ record: { scrambleId: scramble.id, bot: job.bot, ...outcome }, committed: () => deps.onRecorded?.(recorded) });
  }
  return { how: 'complete' };
}

/** The player's next job, readied to start in the turn the answer before it arrives (PlayerBots.ahead). */
interface Ahead {
  readonly job: Job;
  readonly key: string;
  started?: Promise<PlayOutcome | undefined>;
}

/** The bot processes of one player, by bot and start timeout. */
class PlayerBots {
  private readonly launchers = new Map<string, BotLauncher>();
  private next: Ahead | undefined;
  private readonly own = new Map<string, LinkHolder>();
  /** The match (and bot) each link last played for: its stderr until then is that match's. */
  private readonly served = new WeakMap<BotLink, { readonly matchId: number; readonly bot: string }>();
  /** Stderr on its way to the store; awaited when the player stops. */
  private readonly keeping = new Set<Promise<void>>();

  constructor(private readonly deps: PlayerDeps) {}

  /**
   * Plays one scramble; undefined when the signal aborted it, `refused` when the bot could not start and the
   * player refuses such jobs (nothing is to be recorded in either case).
   */
  async play(job: Job, scramble: ScrambleRecord): Promise<PlayOutcome | { refused: string } | undefined> {
    const ahead = this.next;
    if (ahead?.job === job) {
      this.next = undefined;
      if (ahead.started) return ahead.started;
    }
    const { bot, limits, matchId } = job;
    const key = launchKey(bot, limits);
    const launcher = this.launcher(bot, key, limits);
    const slot = launcher.single && this.deps.shared ? this.deps.shared.adopt(key, launcher) : undefined;
    if (slot) return slot.exclusive(() => this.playOn(slot, slot.launcher, matchId, bot, scramble, limits));
    let holder = this.own.get(key);
    if (!holder) this.own.set(key, (holder = { link: undefined, warmUps: new WarmUps() }));
    return this.playOn(holder, launcher, matchId, bot, scramble, limits);
  }

  private async playOn(
    holder: LinkHolder,
    launcher: BotLauncher,
    matchId: number,
    bot: string,
    scramble: ScrambleRecord,
    limits: PlayLimits,
  ): Promise<PlayOutcome | { refused: string } | undefined> {
    const { clock, starts, signal } = this.deps;
    const refuse = this.deps.onStartFailure === 'refuse';
    const blocked = starts.chargeReason(bot);
    if (blocked !== undefined) {
      starts.charged(bot);
      return crash(scramble.state, 0, blocked);
    }
    let link = holder.link;
    if (link && !link.closed && this.served.get(link)?.matchId !== matchId) this.keepStderr(link);
    if (link?.closed) this.keepStderr(link);
    if (!link || link.closed) {
      const t0 = clock.now();
      const got = await launcher.connect();
      if (!got.ok) this.keepStartStderr(launcher, matchId, bot);
      // A hello that breaks the protocol is the bot's fault wherever it runs: charged, never refused.
      if (!got.ok && refuse && got.code !== 'protocol') return signal?.aborted ? undefined : { refused: got.reason };
      // A remote bot that never dialed in is not waited for again; one that dialed in and failed may retry.
      const noShow = !got.ok && launcher.single && got.code === 'timeout';
      starts.started(bot, got.ok ? undefined : got.reason, noShow ? DIAL_IN_ATTEMPTS : START_ATTEMPTS);
      if (!got.ok) {
        if (signal?.aborted) return undefined;
        const failed = crash(scramble.state, clock.now() - t0, `could not start: ${got.reason}`);
        // A bot whose hello broke the protocol is charged for that, one that outgrew its memory limit while
        // starting for that; one that never said hello crashed.
        return got.code === 'protocol' || got.code === 'memory' ? { ...failed, verdict: got.code } : failed;
      }
      link = got.value;
      holder.link = link;
    }
    this.served.set(link, { matchId, bot });
    const gap = capabilityGap(link.hello.capabilities, scramble.state);
    if (gap) return { verdict: 'unsupported', moveCount: 0, moves: puzzleOf(scramble.state).moves.empty, wallMs: 0, error: gap };
    // Untimed warm-up before the first timed solve of this class on this connection (the bot's prepare if it
    // asked, then a throwaway solve if the match asks), and the referee's own, so that none is charged to the
    // first scramble.
    warmRefereeFor(scramble.state);
    const solve = limits.warmUp ? { timeLimitMs: warmUpLimitMs(limits), maxMoves: limits.maxMoves } : undefined;
    const warm = await holder.warmUps.ensure(link, scramble, clock, signal, PREPARE_TIME_LIMIT_MS, solve);
    if (warm === undefined) return undefined;
    if (warm) {
      if (warm.linkBroken) {
        await link.close(warm.verdict === 'timeout' ? 'timed out preparing' : 'connection lost');
        this.keepStderr(link);
        holder.link = undefined;
      }
      const error = `while preparing for ${scramble.puzzleClass}: ${warm.error}`;
      return { verdict: warm.verdict, moveCount: 0, moves: puzzleOf(scramble.state).moves.empty, wallMs: warm.wallMs, error };
    }
    return this.timedSolve(holder, link, scramble.state, limits);
  }

  /**
   * Readies `job` (one scramble) to be sent the moment the answer in flight on its bot's link comes in,
   * with that answer's result: the player's way from one answer to the next solve is then off the bot's
   * clock. It starts only where nothing stands between the two (the same link, kept; no start, warm-up or
   * capability gap pending); otherwise {@link play} plays it as any other.
   */
  ahead(job: Job): void {
    this.next = { job, key: launchKey(job.bot, job.limits) };
  }

  /** Starts the readied job on `link` if it can go now (see {@link ahead}); called in the answer's turn. */
  private startAhead(holder: LinkHolder, link: BotLink): void {
    const a = this.next;
    if (!a || a.started || this.own.get(a.key) !== holder || holder.link !== link || link.closed) return;
    const { job } = a;
    const scramble = job.scrambles[0]!;
    if (this.deps.signal?.aborted || this.deps.starts.chargeReason(job.bot) !== undefined) return;
    if (this.served.get(link)?.matchId !== job.matchId || capabilityGap(link.hello.capabilities, scramble.state)) return;
    if (!holder.warmUps.done(link, scramble.state.kind, scramble.puzzleClass, job.limits.warmUp === true)) return;
    warmRefereeFor(scramble.state);
    // solveOne flushes the link after its send: the result and this solve leave in one write.
    a.started = this.timedSolve(holder, link, scramble.state, job.limits);
  }

  /** One timed solve on a ready link, and what a broken link means for the holder. */
  private async timedSolve(holder: LinkHolder, link: BotLink, state: PuzzleState, limits: PlayLimits): Promise<PlayOutcome | undefined> {
    const { clock, signal } = this.deps;
    const request = { state, timeLimitMs: limits.timeLimitMs, maxMoves: limits.maxMoves };
    const release = this.deps.hold?.();
    const out = await solveOne(link, request, clock, signal, () => this.startAhead(holder, link)).finally(release);
    if (!out) return undefined;
    const { linkBroken, ...outcome } = out;
    if (linkBroken) {
      // A bot that broke the protocol, crashed or ran out of time is not trusted with the next scramble.
      await link.close(out.verdict === 'timeout' ? 'timed out' : 'connection lost');
      this.keepStderr(link);
      holder.link = undefined;
    }
    return outcome;
  }

  /** Closes its own links and launchers, or keeps those that may play on (link-keeper.ts); shared ones are the match's. */
  async dispose(): Promise<void> {
    const { keeper, signal } = this.deps;
    const kept = new Set<BotLauncher>();
    for (const [key, h] of this.own) {
      const launcher = this.launchers.get(key);
      if (!keeper || !launcher || !mayKeep(launcher, h.link, signal?.aborted === true)) continue;
      this.keepStderr(h.link); // what it wrote so far is this match's
      keeper.park({ launcher, link: h.link, warmUps: h.warmUps });
      kept.add(launcher);
      this.own.delete(key);
    }
    await Promise.all([...this.own.values()].map((h) => h.link?.close('match over')));
    const own = [...this.launchers.values()].filter((l) => !(l.single && this.deps.shared) && !kept.has(l));
    await Promise.all(own.map((l) => l.dispose()));
    for (const h of this.own.values()) if (h.link) this.keepStderr(h.link);
    await Promise.all(this.keeping);
  }

  /** Hands what the failed starts of `launcher` wrote to stderr to match `matchId`. */
  private keepStartStderr(launcher: BotLauncher, matchId: number, bot: string): void {
    const text = launcher.takeStderr?.();
    const keep = this.deps.keepStderr;
    if (text && keep) this.track(keep(matchId, bot, text));
  }

  /** Hands what this player's bots wrote for match `matchId` since the last take to it. */
  keepStderrOf(matchId: number): void {
    for (const h of this.own.values()) if (h.link && this.served.get(h.link)?.matchId === matchId) this.keepStderr(h.link);
  }

  /**
   * Hands what `link`'s bot wrote since the last take to the match it served, without holding up play (a
   * closed link's stderr is read to its end first). A failed write loses that text, never the match.
   */
  private keepStderr(link: BotLink): void {
    const served = this.served.get(link);
    const keep = this.deps.keepStderr;
    if (!keep || !link.takeStderr || served === undefined) return;
    this.track(link.takeStderr().then((text) => (text ? keep(served.matchId, served.bot, text) : undefined)));
  }

  /** Lets a write of stderr run beside play, awaited when the player stops; its failure loses only that text. */
  private track(write: Promise<void>): void {
    const kept: Promise<void> = write.catch(() => undefined).finally(() => this.keeping.delete(kept));
    this.keeping.add(kept);
  }

  /** The launcher of `key`, made once; a bot kept from an earlier match with the same launch comes with it. */
  private launcher(bot: string, key: string, limits: PlayLimits): BotLauncher {
    let l = this.launchers.get(key);
    if (!l) {
      l = this.deps.makeLauncher(bot, { ...limits, ...(this.deps.player !== undefined ? { player: this.deps.player } : {}) });
      const kept = l.reuse && this.deps.keeper?.take(l.reuse.launch, l.name);
      if (kept) {
        void l.dispose();
        l = kept.launcher;
        this.own.set(key, { link: kept.link, warmUps: kept.warmUps });
      }
      this.launchers.set(key, l);
    }
    return l;
  }
}

/** A crash before any move: the answer recorded is the kind's empty one. */
function crash(state: PuzzleState, wallMs: number, error: string): PlayOutcome {
  return { verdict: 'crash', moveCount: 0, moves: puzzleOf(state).moves.empty, wallMs, error };
}
