/**
 * Started bots kept between matches. A bot whose hello said `reuse` may play several games on one start: at
 * a match's end its player hands a healthy link here instead of saying `bye`, and the next match that asks
 * for a bot with the same launch (BotLauncher.reuse.launch: version, command, limits, cores, confinement)
 * takes it instead of starting one. A kept bot is closed when nobody takes it within a few seconds, when its
 * owner (the ladder) says its next game is another pairing, and when the owner stops.
 *
 * What keeps the limits and verdicts of a reused bot those of a fresh start: every solve is timed and its
 * CPU measured from its own `solve` (solve-one.ts), the memory limit and disk budget are those of the same
 * launch, and only a bot that nothing broke is kept (see {@link mayKeep}).
 */
import type { BotLauncher, BotLink, Clock } from '../protocol/link.ts';
import type { WarmUps } from './warm-up.ts';

/** How long a kept bot waits for its next match before it is told bye, ms. */
export const KEEP_IDLE_MS = 5_000;

/** A started bot between matches: its launcher (whose dispose ends it), its link, what it was prepared for. */
export interface KeptBot {
  readonly launcher: BotLauncher;
  readonly link: BotLink;
  readonly warmUps: WarmUps;
}

/**
 * Whether a bot may be kept at its match's end: it said `reuse`, its launcher says how it was started, it
 * is not a remote bot (one connection, not started by the arena), its link is open (a crash, a kill for a
 * time-out or a limit, a protocol fault or a restart in flight each leave none), the match was not stopped,
 * and its CPU time so far leaves its CPU backstop what a fresh start's would cover (BotLauncher.reuse.cpuMs;
 * where CPU time cannot be read, it is not kept).
 */
export function mayKeep(launcher: BotLauncher, link: BotLink | undefined, stopped: boolean): link is BotLink {
  if (stopped || !launcher.reuse || launcher.single || !link || link.closed || link.hello.reuse !== true) return false;
  return withinBudget(launcher, link);
}

/**
 * Whether the bot's CPU time so far is within what a kept bot may have used. Checked when it is kept and
 * again when it is handed out (take, peek): a kept bot may compute on its own between games.
 */
function withinBudget(launcher: BotLauncher, link: BotLink): boolean {
  const cpu = link.cpuMs?.();
  return launcher.reuse !== undefined && cpu !== undefined && cpu <= launcher.reuse.cpuMs;
}

/** The kept bots of one owner (a ladder), by launch. */
export class LinkKeeper {
  private readonly kept = new Map<string, { readonly bot: KeptBot; readonly cancel: () => void }>();

  constructor(
    private readonly clock: Clock,
    private readonly idleMs = KEEP_IDLE_MS,
  ) {}

  /** How many bots are kept now. */
  get size(): number {
    return this.kept.size;
  }

  /** Keeps `bot` for a later match with the same launch (another kept under it is closed). */
  park(bot: KeptBot): void {
    const launch = bot.launcher.reuse?.launch;
    if (launch === undefined) {
      void end(bot, 'match over');
      return;
    }
    this.drop(launch, 'replaced by another start');
    const cancel = this.clock.setTimer(this.idleMs, () => this.drop(launch, 'idle: no game for it'));
    this.kept.set(launch, { bot, cancel });
  }

  /**
   * The bot kept for `launch`, now the caller's; undefined when none (or it died while kept). Given the
   * caller's bot `name`, a start of that bot kept under another launch (other cores or limits) is ended at
   * once: the caller starts its own, and the kept one would only idle beside it until its idle time, on
   * cores another player of this match may now hold.
   */
  take(launch: string, name?: string): KeptBot | undefined {
    const k = this.kept.get(launch);
    if (!k) {
      if (name !== undefined) {
        for (const [other, o] of this.kept) if (o.bot.launcher.name === name) void this.drop(other, 'started again under another launch');
      }
      return undefined;
    }
    this.kept.delete(launch);
    k.cancel();
    if (!k.bot.link.closed && withinBudget(k.bot.launcher, k.bot.link)) return k.bot;
    void end(k.bot, k.bot.link.closed ? 'died while kept' : 'used its CPU allowance while kept');
    return undefined;
  }

  /**
   * The link kept for `launch`, left kept (the preflight reads its hello); undefined when none is alive or
   * it has used more CPU while kept than a kept bot may have (then it is ended: no game will take it).
   */
  peek(launch: string): BotLink | undefined {
    const k = this.kept.get(launch);
    if (!k || k.bot.link.closed) return undefined;
    if (withinBudget(k.bot.launcher, k.bot.link)) return k.bot.link;
    void this.drop(launch, 'used its CPU allowance while kept');
    return undefined;
  }

  /** Tells every kept bot bye and ends it (the owner stops, or has no game for any). */
  closeAll(reason = 'no further game'): Promise<void> {
    return this.closeExcept(new Set(), reason);
  }

  /** Ends every kept bot but those of the bots named in `keep` (BotLauncher.name): the next game has no use for them. */
  async closeExcept(keep: ReadonlySet<string>, reason = 'not in the next game'): Promise<void> {
    const gone = [...this.kept].filter(([, k]) => !keep.has(k.bot.launcher.name)).map(([launch]) => launch);
    await Promise.all(gone.map((launch) => this.drop(launch, reason)));
  }

  private drop(launch: string, reason: string): Promise<void> {
    const k = this.kept.get(launch);
    if (!k) return Promise.resolve();
    this.kept.delete(launch);
    k.cancel();
    return end(k.bot, reason);
  }
}

/** Says bye and kills the bot's process group, then its launcher's leftovers. */
async function end(bot: KeptBot, reason: string): Promise<void> {
  await bot.link.close(reason);
  await bot.launcher.dispose();
}
