/**
 * Match records after the fact: the list of matches (filtered, with progress and who won each pair) and the
 * report of any one match, running, interrupted or finished, rebuilt from the database alone.
 */
import type { Result } from '../../core/types.ts';
import { reject } from '../../core/types.ts';
import { parseMatchConfig, tieBreakOf } from '../../referee/match-config.ts';
import { buildMatchReport, type MatchReport } from '../../referee/match-report.ts';
import { pairTallies } from '../../stats/match-stats.ts';
import { presetOfConfig } from '../../referee/settings/settings-view.ts';
import type { MatchFilter, MatchRecord, MatchStatus, ResultSummary } from '../../store/types.ts';

export type { MatchStatus } from '../../store/types.ts';
import type { AppContext } from '../context.ts';
import { coreDealText } from '../launch/cores.ts';

/** Every match status, in the order a match passes through them. */
export const MATCH_STATUSES: readonly MatchStatus[] = ['running', 'interrupted', 'finished'];

/** Builds the report of a stored match from its scrambles and result summaries. */
export async function reportOf(ctx: AppContext, match: MatchRecord): Promise<MatchReport> {
  const config = parseMatchConfig(match.config);
  const report = buildMatchReport(
    match,
    await ctx.store.listScrambles(match.id),
    await ctx.store.listSummaries(match.id),
    config.ok ? tieBreakOf(config.value) : {},
    config.ok ? config.value.sprt : undefined,
  );
  if (!config.ok) return report;
  // Every reader of a match (show, --json, the web page) learns its settings, that its bots ran unconfined
  // and how its cores were dealt.
  const settings = presetOfConfig(config.value);
  const { unconfined, cores } = config.value;
  return {
    ...report,
    match: { ...report.match, ...(unconfined ? { unconfined: true as const } : {}), ...(cores ? { cores: { text: coreDealText(cores), deal: cores } } : {}), settings },
  };
}

/** The report of a stored match (running, interrupted or finished): the document `arena match --json` prints. */
export async function showMatch(ctx: AppContext, id: number): Promise<Result<MatchReport>> {
  const match = await ctx.store.getMatch(id);
  if (!match) return reject('no-match', `no match with id ${id}`);
  return { ok: true, value: await reportOf(ctx, match) };
}

/** The head-to-head of one pair in a listing, from `a`'s point of view. */
export interface ListingPair {
  readonly a: string;
  readonly b: string;
  readonly wins: number;
  readonly draws: number;
  readonly losses: number;
  /** The bot with more wins, or null when level. */
  readonly leader: string | null;
}

/** One line of the match list. */
export interface MatchListing {
  readonly id: number;
  readonly status: MatchStatus;
  readonly createdAt: string;
  readonly bots: readonly string[];
  readonly seed: string;
  /** Puzzle classes of the scrambles played so far (else the configured kind). */
  readonly puzzleClasses: readonly string[];
  /** Scrambles in the match (as configured), and how many every bot has answered. */
  readonly scrambles: number | null;
  readonly scramblesDone: number;
  /** Results recorded, of scrambles × bots. */
  readonly plays: number;
  /** Where the scrambles come from: the spec's kind, or the file. */
  readonly source: string | null;
  /** Every pair's W-D-L so far, in the order the bots were named. */
  readonly pairs: readonly ListingPair[];
}

/** Which matches to list. */
export interface ListMatchesOptions extends MatchFilter {
  /** At most this many, newest first (default all). */
  readonly limit?: number;
}

/** The most recent matches, newest first, narrowed by status, bot and puzzle class. */
export async function listMatches(ctx: AppContext, o: ListMatchesOptions = {}): Promise<MatchListing[]> {
  const { limit, ...filter } = o;
  const matches = await ctx.store.listMatches(limit, filter);
  const out: MatchListing[] = [];
  for (const m of matches) out.push(listing(m, await ctx.store.listSummaries(m.id)));
  return out;
}

/** One match's line of the list, from its results (src/app/records/match-list-cache.ts keeps finished ones). */
export function listing(m: MatchRecord, rows: readonly ResultSummary[]): MatchListing {
  const config = parseMatchConfig(m.config);
  const c = config.ok ? config.value : undefined;
  const answered = new Map<number, number>();
  for (const r of rows) answered.set(r.scrambleId, (answered.get(r.scrambleId) ?? 0) + 1);
  const classes = [...new Set(rows.map((r) => r.puzzleClass))];
  const tallies = pairTallies(rows, c ? tieBreakOf(c) : {});
  const pairs: ListingPair[] = [];
  for (let i = 0; i < m.bots.length; i++) {
    for (let j = i + 1; j < m.bots.length; j++) {
      const [a, b] = [m.bots[i], m.bots[j]];
      const t = tallies.find((x) => (x.a === a && x.b === b) || (x.a === b && x.b === a));
      const w = !t ? { wins: 0, draws: 0, losses: 0 } : t.a === a ? t : { wins: t.losses, draws: t.draws, losses: t.wins };
      pairs.push({ a, b, wins: w.wins, draws: w.draws, losses: w.losses, leader: w.wins > w.losses ? a : w.losses > w.wins ? b : null });
    }
  }
  return {
    id: m.id,
    status: m.status,
    createdAt: m.createdAt,
    bots: m.bots,
    seed: m.seed,
    puzzleClasses: classes.length ? classes : c?.spec ? [c.spec.kind] : [],
    scrambles: c?.count ?? null,
    scramblesDone: [...answered.values()].filter((n) => n >= m.bots.length).length,
    plays: rows.length,
    source: c ? (c.scrambleFile ?? c.spec?.kind ?? null) : null,
    pairs,
  };
}
