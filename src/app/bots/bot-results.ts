/**
 * A bot's results as a whole: how many there are under its name and its flag variants, and deleting them
 * (`arena bot remove <name> --purge`). Unregistering alone keeps results; this is the explicit way out.
 */
import type { Result } from '../../core/types.ts';
import { reject } from '../../core/types.ts';
import type { AppContext } from '../context.ts';
import { builtinBotCommand } from '../../transport/process/builtin-bots.ts';

/** The results recorded under a bot's name and its variants ("mybot", "mybot --fast"). */
export interface BotResults {
  readonly name: string;
  /** Each recorded variant and its number of results. */
  readonly variants: ReadonlyArray<{ readonly bot: string; readonly results: number }>;
  readonly results: number;
  readonly matches: number;
}

/** Counts what a purge of `name` would delete. */
export async function botResults(ctx: AppContext, name: string): Promise<BotResults> {
  const matches = await ctx.store.listMatches(undefined, { bot: name });
  const counts = new Map<string, number>();
  let withResults = 0;
  for (const m of matches) {
    const mine = (await ctx.store.listSummaries(m.id)).filter((r) => r.bot === name || r.bot.startsWith(`${name} `));
    if (mine.length) withResults++;
    for (const r of mine) counts.set(r.bot, (counts.get(r.bot) ?? 0) + 1);
  }
  const variants = [...counts].map(([bot, results]) => ({ bot, results })).sort((a, b) => (a.bot < b.bot ? -1 : 1));
  return { name, variants, results: variants.reduce((s, v) => s + v.results, 0), matches: withResults };
}

/** What a purge did. */
export interface Purged extends BotResults {
  /** True when a registration was removed too (built-in bots have none). */
  readonly unregistered: boolean;
}

/**
 * Unregisters `name` (when registered) and deletes every result recorded under it and its variants. The
 * match records stay, with their other bots' results. A name that is neither registered, built in, nor in
 * any result is a rejection.
 */
export async function purgeBot(ctx: AppContext, name: string): Promise<Result<Purged>> {
  const found = await botResults(ctx, name);
  const registered = (await ctx.store.getBot(name)) !== undefined;
  if (!registered && found.results === 0 && !builtinBotCommand(name, ctx.projectRoot)) {
    return reject('no-bot', `no registered bot named "${name}" and no results under that name`);
  }
  for (const v of found.variants) await ctx.store.removeResults(v.bot);
  const unregistered = registered ? await ctx.store.removeBot(name) : false;
  return { ok: true, value: { ...found, unregistered } };
}
