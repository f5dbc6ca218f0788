/**
 * The ladder's bots between games. The ladder plays one game at a time, and often the same pairing again
 * (placement games of a newcomer against the same rival): a bot whose hello said `reuse` is then kept
 * running from one game to the next instead of being started again (referee/link-keeper.ts). The simplest
 * rule that gives that: before each game, if its pairing (the two versions) is not the last game's, every
 * kept bot is told bye; kept bots dial one server that lives as long as the ladder; when the ladder stops
 * (Ctrl-C), every kept bot is ended with it.
 */
import { LinkKeeper, KEEP_IDLE_MS } from '../../referee/link-keeper.ts';
import { startArenaServer } from '../../transport/ws-server.ts';
import type { AppContext } from '../context.ts';
import type { BotKeeping } from '../matches/matches.ts';

/** The ladder's keeping: what each local game is handed, and when kept bots go. */
export interface LadderKeeping {
  readonly keep: BotKeeping;
  /** Called before each game with its entries' version ids: a different pairing ends what is kept. */
  before(versionIds: readonly number[]): Promise<void>;
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
  let last = '';
  const ending = new Set<Promise<void>>();
  return {
    keep: { keeper, server },
    async before(versionIds) {
      const pairing = [...versionIds].sort((a, b) => a - b).join(',');
      if (pairing !== last) await keeper.closeAll('the next ladder game is another pairing');
      last = pairing;
    },
    release() {
      if (keeper.size === 0) return;
      last = '';
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
