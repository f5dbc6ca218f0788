/**
 * The round-robin view of a match of three or more bots, as cutechess and fastchess print it: every pair's
 * head-to-head (score, Elo, significance) in a table, each bot's totals, and an ordering. Every bot plays
 * every scramble, so each scramble is one game for every pair. Pure.
 */
import { fitBradleyTerry } from './bradley-terry.ts';
import { pairStats, reversePairStats, type PairStats, type PairTally } from './match-stats.ts';

/** One bot's line of the table. */
export interface CrossTableTotal {
  readonly bot: string;
  /** 1 for the best; bots whose ratings round to the same tenth share a rank. */
  readonly rank: number;
  /** Games against all opponents (a scramble counts once per opponent). */
  readonly games: number;
  readonly wins: number;
  readonly draws: number;
  readonly losses: number;
  /** Wins + draws/2. */
  readonly points: number;
  /** points / games; null without games. */
  readonly score: number | null;
  /**
   * Bradley–Terry rating from all pairs (Elo scale, mean 0), the ordering key, and its approximate interval:
   * it weighs each result by the strength of the opponent, which plain totals cannot when some pairs met
   * on fewer scrambles.
   */
  readonly rating: number;
  readonly ratingLow: number;
  readonly ratingHigh: number;
}

/** The cross-table of a match. */
export interface CrossTable {
  /** Bots, best first. */
  readonly order: readonly string[];
  /** cells[i][j]: order[i] against order[j]; null on the diagonal and for pairs that never met. */
  readonly cells: ReadonlyArray<ReadonlyArray<PairStats | null>>;
  /** Per-bot totals, in `order`. */
  readonly totals: readonly CrossTableTotal[];
}

/** Builds the cross-table of `bots` from pairwise W-D-L tallies (several for one pair add up). */
export function buildCrossTable(tallies: readonly PairTally[], bots: readonly string[], level = 0.95): CrossTable {
  const known = new Set(bots);
  const wdl = new Map<string, { wins: number; draws: number; losses: number }>();
  const key = (a: string, b: string): string => `${a}\u0000${b}`;
  for (const t of tallies) {
    if (!known.has(t.a) || !known.has(t.b) || t.a === t.b) continue;
    // Stored once per unordered pair, from the point of view of the name that sorts first.
    const forward = t.a < t.b;
    const k = forward ? key(t.a, t.b) : key(t.b, t.a);
    const c = wdl.get(k) ?? { wins: 0, draws: 0, losses: 0 };
    c.wins += forward ? t.wins : t.losses;
    c.draws += t.draws;
    c.losses += forward ? t.losses : t.wins;
    wdl.set(k, c);
  }
  const merged: PairTally[] = [...wdl.entries()].map(([k, c]) => {
    const [a, b] = k.split('\u0000');
    return { a, b, ...c };
  });
  const fit = fitBradleyTerry(merged, { players: bots });
  const order = fit.ratings.map((r) => r.name);
  const index = new Map(order.map((b, i) => [b, i]));
  const cells: Array<Array<PairStats | null>> = order.map(() => order.map(() => null));
  for (const t of merged) {
    const s = pairStats(t, level);
    const i = index.get(t.a)!;
    const j = index.get(t.b)!;
    cells[i][j] = s;
    cells[j][i] = reversePairStats(s);
  }
  let rank = 0;
  let previous = NaN;
  const totals = fit.ratings.map((r, i): CrossTableTotal => {
    let wins = 0;
    let draws = 0;
    let losses = 0;
    for (const c of cells[i]) {
      if (!c) continue;
      wins += c.wins;
      draws += c.draws;
      losses += c.losses;
    }
    const games = wins + draws + losses;
    const points = wins + draws / 2;
    const rounded = Math.round(r.rating * 10);
    if (rounded !== previous) rank = i + 1;
    previous = rounded;
    return { bot: r.name, rank, games, wins, draws, losses, points, score: games ? points / games : null, rating: r.rating, ratingLow: r.low, ratingHigh: r.high };
  });
  return { order, cells, totals };
}
