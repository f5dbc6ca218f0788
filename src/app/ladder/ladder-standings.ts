/**
 * The ladder's versions, games and ratings as of the database's change marker, for the ladder service and
 * its pages. An unchanged database costs one marker read. After a write: the versions, the newest games,
 * which matches are still being played, and the results of those only; what finished games added to the
 * ratings is summed once (src/stats/ladder-tallies.ts) and kept, unless a purge deleted results (counted by a
 * trigger): then everything is read again. The first read of a big database is one bulk read of every
 * result.
 */
import type { BotVersion, LadderGame } from '../../store/ladder-types.ts';
import type { AppContext } from '../context.ts';
import type { LadderBoards } from './ladder-ratings.ts';
import { addContribution, boardsOfTotals, cloneTotals, contributionOf, rowsByMatch, type Totals } from '../../stats/ladder-tallies.ts';
import { ratedResults } from '../records/rated-results.ts';

/** What the ladder knows. */
export interface LadderStandings {
  readonly versions: BotVersion[];
  /** Newest first. */
  readonly games: LadderGame[];
  readonly boards: LadderBoards;
}

interface Kept {
  marker?: string;
  deletions?: string;
  standings?: LadderStandings;
  /** Every game known, newest first. */
  games: LadderGame[];
  /** Match ids whose (finished) results are summed into `totals`. */
  final: Set<number>;
  totals: Totals;
}

const kept = new WeakMap<object, Kept>();
/** Above this many games to read, one bulk read of every result beats a query per game. */
const BULK_FROM = 20;
/** Games read per refresh: the newest ones, where new games and newly tied matches are. */
const NEWEST = 64;

const fresh = (): Kept => ({ games: [], final: new Set(), totals: new Map() });

/** The standings now, from what was kept where the database has not changed. */
export async function ladderStandings(ctx: AppContext): Promise<LadderStandings> {
  let k = kept.get(ctx.store) ?? fresh();
  const marker = await ctx.store.changeMarker();
  if (marker !== undefined && k.marker === marker && k.standings) return k.standings;
  const ladder = ctx.store.ladder();
  const deletions = (await ladder.getState('results-deleted')) ?? '0';
  // A store without a marker cannot say what changed (the memory store): nothing is kept there.
  if (deletions !== k.deletions || marker === undefined) k = fresh();
  kept.set(ctx.store, k);
  const versions = await ladder.listVersions();
  k.games = await refreshGames(ctx, k.games);
  const open = new Set<number>();
  for (const status of ['running', 'interrupted'] as const) for (const m of await ctx.store.listMatches(undefined, { status })) open.add(m.id);
  const pending = k.games.filter((g) => g.matchId !== undefined && !k.final.has(g.matchId));
  const bulk = pending.length > BULK_FROM ? rowsByMatch((await ratedResults(ctx)).columns, new Set(pending.map((g) => g.matchId!))) : undefined;
  const totals = cloneTotals(k.totals);
  for (const g of pending) {
    const c = contributionOf(g, bulk ? (bulk.get(g.matchId!) ?? []) : await ctx.store.listSummaries(g.matchId!));
    addContribution(totals, c);
    // A finished match (its status was read before its results) is summed for good.
    if (!open.has(g.matchId!)) {
      addContribution(k.totals, c);
      k.final.add(g.matchId!);
    }
  }
  const standings = { versions, games: k.games, boards: boardsOfTotals(totals) };
  Object.assign(k, { marker, deletions, standings });
  return standings;
}

/** The known games with the newest re-read (new ones, matches tied since); all of them when far behind. */
async function refreshGames(ctx: AppContext, known: LadderGame[]): Promise<LadderGame[]> {
  const ladder = ctx.store.ladder();
  const newest = await ladder.listGames({ limit: NEWEST });
  const oldest = newest[newest.length - 1];
  const lastKnown = known[0]?.id ?? 0;
  if (known.length === 0 || (newest.length === NEWEST && oldest!.id > lastKnown + 1)) return ladder.listGames();
  return [...newest, ...known.filter((g) => oldest === undefined || g.id < oldest.id)];
}
