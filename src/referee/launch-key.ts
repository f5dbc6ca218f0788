/**
 * Which launcher a bot's job is played through: a player makes one launcher per bot and launch key, so the
 * jobs of a match that start a bot alike share its process.
 */
import type { PlayLimits } from './job-source.ts';

/**
 * What a launcher is made with: the limits of the job's match, as its config gives them (the one carrier
 * from the stored settings to the launcher, which derives its launch plan from them: app/launch), and
 * which of the process's parallel players asks (0-based), so its bots can be pinned to its own cores.
 */
export type LaunchOptions = PlayLimits & { readonly player?: number };

/** Keys worked out, by limits object and bot: every job of a match carries the same limits, and a key is asked per job. */
const launchKeys = new WeakMap<LaunchOptions, Map<string, string>>();

/** Which launcher a bot's job is played through: its limits, less what does not change how the bot is started. */
export function launchKey(bot: string, limits: LaunchOptions): string {
  let byBot = launchKeys.get(limits);
  if (!byBot) launchKeys.set(limits, (byBot = new Map()));
  let key = byBot.get(bot);
  if (key === undefined) {
    const { maxMoves: _moves, warmUp: _warm, player: _player, ...launch } = limits;
    // Code-unit order, not localeCompare: the key only has to be the same for the same limits, and ICU's
    // collation cost ~8 µs a job.
    key = JSON.stringify([bot, Object.entries(launch).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))]);
    byBot.set(bot, key);
  }
  return key;
}
