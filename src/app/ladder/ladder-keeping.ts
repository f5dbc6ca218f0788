/**
 * The ladder's bots between games. The ladder plays one game at a time, and a bot often plays the next game
 * too (a newcomer plays every one of its placement games; a pairing may play again): a bot whose hello said
 * `reuse` is then kept running from one game to the next instead of being started again
 * (referee/link-keeper.ts). The rule: before each game, every kept bot whose version is not in it is told
 * bye (the game takes the others, when their launch is the same); a check or a wait ends them all at once;
 * kept bots dial one server that lives as long as the ladder; when the ladder stops (Ctrl-C), every kept bot
 * is ended with it.
 */
import { LinkKeeper, KEEP_IDLE_MS } from '../../referee/link-keeper.ts';
import { startArenaServer } from '../../transport/ws-server.ts';
import type { AppContext } from '../context.ts';
import type { BotKeeping } from '../matches/matches.ts';

/** A bot of a game and the version it plays as. */
export interface GameEntry {
  readonly bot: string;
  readonly versionId: number;
}

/** The ladder's keeping: what each local game is handed, and when kept bots go. */
export interface LadderKeeping {
  readonly keep: BotKeeping;
  /** Called before each game with its entries: kept bots of other versions are ended. */
  before(entries: readonly GameEntry[]): Promise<void>;
  /**
   * The ladder turns to something other than a game (a check, waiting): what is kept is ended now, beside
   * that work, instead of lingering until its idle time (awaited by close).
   */
  release(): void;
  /** Ends every kept bot and the server they dial. */
  close(): Promise<void>;
}

/** Opens the keeping of one ladder run; `idleMs` is how long a kept bot waits for its next game. */
export async function openLadderKeeping(ctx: Pick<AppContext, 'clock'>, idleMs = KEEP_IDLE_MS): Promise<LadderKeeping> {
  // Spawned bots are admitted by one-time tokens; no remote bot dials this server (a game with one starts its own).
  const server = await startArenaServer({ authenticate: () => undefined });
  const keeper = new LinkKeeper(ctx.clock, idleMs);
  /** The entries of the last game, as "bot\0version". */
  let last = new Set<string>();
  const ending = new Set<Promise<void>>();
  return {
    keep: { keeper, server },
    async before(entries) {
      const key = (e: GameEntry) => `${e.bot}\0${e.versionId}`;
      // A bot's kept start is of the version the last game played; a new version of it is another bot.
      await keeper.closeExcept(new Set(entries.filter((e) => last.has(key(e))).map((e) => e.bot)), 'not in the next ladder game');
      last = new Set(entries.map(key));
    },
    release() {
      if (keeper.size === 0) return;
      last = new Set();
      const end: Promise<void> = keeper.closeAll('no ladder game for it next').finally(() => ending.delete(end));
      ending.add(end);
    },
    async close() {
      await Promise.all(ending);
      await keeper.closeAll('the ladder stopped');
      await server.close();
    },
  };
}
