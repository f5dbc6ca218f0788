import type { Result } from '../core/types.ts';
import { reject } from '../core/types.ts';
import type { Verdict } from '../core/verdict.ts';
import { buildLeaderboard, type LeaderboardEntry } from '../referee/leaderboard.ts';
import { listBots, type BotEntry } from './bot-registry.ts';
import type { AppContext } from './context.ts';
import { listMatches, type MatchListing } from './matches.ts';

/** Everything the bot page shows: never a token, only how the bot is started or that it dials in. */
export interface BotProfile {
  readonly bot: BotEntry | { readonly name: string; readonly kind: 'unregistered'; readonly how: string };
  /** Its line on the leaderboard of every class it played, with the class. */
  readonly classes: readonly (LeaderboardEntry & { readonly puzzleClass: string; readonly rank: number; readonly of: number })[];
  readonly verdicts: Readonly<Partial<Record<Verdict, number>>>;
  readonly recent: readonly MatchListing[];
}

/** The profile of a bot by name (registered, built-in, or only present in results). */
export async function botProfile(ctx: AppContext, name: string): Promise<Result<BotProfile>> {
  const known = (await listBots(ctx)).find((b) => b.name === name);
  const rows = await ctx.store.allSummaries();
  const mine = rows.filter((r) => r.bot === name);
  if (!known && mine.length === 0) return reject('no-bot', `no bot named "${name}"`);
  const verdicts: Partial<Record<Verdict, number>> = {};
  for (const r of mine) verdicts[r.verdict] = (verdicts[r.verdict] ?? 0) + 1;
  const played = new Set(mine.map((r) => r.puzzleClass));
  const classes = buildLeaderboard(rows.filter((r) => played.has(r.puzzleClass)))
    .flatMap((b) => {
      const i = b.entries.findIndex((e) => e.bot === name);
      return i < 0 ? [] : [{ ...b.entries[i], puzzleClass: b.puzzleClass, rank: i + 1, of: b.entries.length }];
    });
  const recent = (await listMatches(ctx, { limit: 200 })).filter((m) => m.bots.includes(name)).slice(0, 20);
  return {
    ok: true,
    value: { bot: known ?? { name, kind: 'unregistered', how: 'not registered (results only)' }, classes, verdicts, recent },
  };
}
