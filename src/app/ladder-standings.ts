/**
 * The ladder's versions, games and ratings as of the database's change marker, for the ladder service and
 * its pages. An unchanged database costs one marker read; a change re-reads the versions and games and
 * brings the ratings up to date through ladder-tallies.ts (finished games are never read twice, unless a
 * purge deleted results: then everything is read again).
 */
import type { BotVersion, LadderGame } from '../store/ladder-types.ts';
import type { AppContext } from './context.ts';
import type { LadderBoards } from './ladder-ratings.ts';
import { boardsOfContributions, contributionOf, rowsByMatch, type Contribution } from './ladder-tallies.ts';
import { ratedResults } from './rated-results.ts';

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
  /** Contributions of finished games' matches, by match id. */
  readonly final: Map<number, Contribution>;
}

const kept = new WeakMap<object, Kept>();
/** Above this many games to read, one bulk read of every result beats a query per game. */
const BULK_FROM = 20;

/** The standings now, from what was kept where the database has not changed. */
export async function ladderStandings(ctx: AppContext): Promise<LadderStandings> {
  let k = kept.get(ctx.store);
  if (!k) kept.set(ctx.store, (k = { final: new Map() }));
  const marker = await ctx.store.changeMarker();
  if (marker !== undefined && k.marker === marker && k.standings) return k.standings;
  const ladder = ctx.store.ladder();
  const deletions = (await ladder.getState('results-deleted')) ?? '0';
  // A store without a marker cannot say what changed (the memory store): nothing is kept there.
  if (deletions !== k.deletions || marker === undefined) k.final.clear();
  const versions = await ladder.listVersions();
  const games = await ladder.listGames();
  const open = new Set<number>();
  for (const status of ['running', 'interrupted'] as const) for (const m of await ctx.store.listMatches(undefined, { status })) open.add(m.id);
  const contributions: Contribution[] = [];
  const missing = games.filter((g) => g.matchId !== undefined && !k.final.has(g.matchId));
  const read = missing.length > BULK_FROM ? rowsByMatch((await ratedResults(ctx)).columns, new Set(missing.map((g) => g.matchId!))) : undefined;
  for (const g of games) {
    if (g.matchId === undefined) continue;
    const had = k.final.get(g.matchId);
    if (had) {
      contributions.push(had);
      continue;
    }
    const rows = read ? (read.get(g.matchId) ?? []) : await ctx.store.listSummaries(g.matchId);
    const c = contributionOf(g, rows);
    // A match is final once finished (its status was read before its results): never read again.
    if (!open.has(g.matchId)) k.final.set(g.matchId, c);
    contributions.push(c);
  }
  const standings = { versions, games, boards: boardsOfContributions(contributions) };
  Object.assign(k, { marker, deletions, standings });
  return standings;
}
