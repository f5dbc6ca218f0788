/**
 * Bots that are one connection. A remote bot dials in once with its token and the server admits one live
 * connection per token, so the players of a match cannot each have their own: they share the one link,
 * one request at a time, in the order they asked. A waiting player's clock has not started (a time limit
 * runs from its `solve`), so sharing costs the bot nothing but parallelism.
 */
import type { BotLauncher, BotLink } from '../protocol/link.ts';
import { WarmUps } from './warm-up.ts';

/** Where a player keeps the link to one bot and what the link was prepared for. */
export interface LinkHolder {
  link: BotLink | undefined;
  readonly warmUps: WarmUps;
}

/** One bot's link shared by every player of a match, used by one play at a time. */
export class LinkSlot implements LinkHolder {
  link: BotLink | undefined;
  readonly warmUps = new WarmUps();
  private tail: Promise<unknown> = Promise.resolve();

  constructor(readonly launcher: BotLauncher) {}

  /** Runs `play` once every play that asked before it has finished. */
  exclusive<T>(play: () => Promise<T>): Promise<T> {
    const run = this.tail.then(play, play);
    this.tail = run.catch(() => undefined);
    return run;
  }
}

/** The shared slots of one match, by launcher key; the match disposes them after its last player. */
export class SharedLinks {
  private readonly slots = new Map<string, LinkSlot>();

  /**
   * The slot for `key`, made around `launcher` the first time; a later player's launcher for the same key
   * is a duplicate, disposed at once.
   */
  adopt(key: string, launcher: BotLauncher): LinkSlot {
    const slot = this.slots.get(key);
    if (!slot) {
      const made = new LinkSlot(launcher);
      this.slots.set(key, made);
      return made;
    }
    if (slot.launcher !== launcher) void launcher.dispose();
    return slot;
  }

  async dispose(): Promise<void> {
    const slots = [...this.slots.values()];
    this.slots.clear();
    await Promise.all(slots.map(async (s) => {
      await s.link?.close('match over');
      await s.launcher.dispose();
    }));
  }
}
