import type { Result } from '../../core/types.ts';
import { reject } from '../../core/types.ts';
import { VERDICTS, type Verdict } from '../../core/verdict.ts';
import type { LeaderboardEntry } from '../../stats/leaderboard.ts';
import { listBots, type BotEntry } from '../bots/bot-registry.ts';
import type { AppContext } from '../context.ts';
import { listMatches, type MatchListing } from './records.ts';
import { ratedResults } from './rated-results.ts';

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
  const rated = await ratedResults(ctx);
  const { columns } = rated;
  const me = columns.bots.indexOf(name);
  if (!known && me < 0) return reject('no-bot', `no bot named "${name}"`);
  const verdicts: Partial<Record<Verdict, number>> = {};
  const played = new Set<string>();
  for (let i = 0; i < columns.length; i++) {
    if (columns.bot[i] !== me) continue;
    const v = VERDICTS[columns.verdict[i]];
    verdicts[v] = (verdicts[v] ?? 0) + 1;
    played.add(columns.classes[columns.puzzleClass[i]]);
  }
  const classes = rated
    .boards()
    .filter((b) => played.has(b.puzzleClass))
    .flatMap((b) => {
      const i = b.entries.findIndex((e) => e.bot === name);
      return i < 0 ? [] : [{ ...b.entries[i], puzzleClass: b.puzzleClass, rank: i + 1, of: b.entries.length }];
    });
  const recent = await listMatches(ctx, { bot: name, limit: 20 });
  return {
    ok: true,
    value: { bot: known ?? { name, kind: 'unregistered', how: 'not registered (results only)' }, classes, verdicts, recent },
  };
}
