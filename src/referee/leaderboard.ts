import type { ResultSummary } from '../store/types.ts';
import { fitBradleyTerry } from './bradley-terry.ts';
import { pairTallies, summarizeBots } from './match-stats.ts';

/** One bot's line on the leaderboard of one puzzle class. */
export interface LeaderboardEntry {
  readonly bot: string;
  /** Bradley–Terry rating on the Elo scale, mean 0 within the class. */
  readonly rating: number;
  readonly low: number;
  readonly high: number;
  /** Head-to-head scramble games against other bots. */
  readonly games: number;
  /** Results that count: every verdict but `unsupported`. */
  readonly results: number;
  /** Scrambles of the class the bot declined (`unsupported`): neither games nor results. */
  readonly declined: number;
  readonly solveRate: number;
  readonly meanMoves: number | null;
  readonly meanGap: number | null;
  readonly medianWallMs: number | null;
}

/** The leaderboard of one puzzle class, best first. */
export interface ClassBoard {
  readonly puzzleClass: string;
  readonly entries: LeaderboardEntry[];
}

/**
 * Fits one Bradley–Terry rating per bot and puzzle class from every head-to-head scramble outcome in the
 * database (a scramble where two bots both have a result is one game between them).
 *
 * `unsupported` is a bot declining a class it does not claim to solve, not a loss: those results enter
 * neither the games nor the solve rate, and a bot that declined everything in a class is not listed there.
 */
export function buildLeaderboard(rows: readonly ResultSummary[]): ClassBoard[] {
  const byClass = new Map<string, ResultSummary[]>();
  for (const r of rows) {
    const list = byClass.get(r.puzzleClass);
    if (list) list.push(r);
    else byClass.set(r.puzzleClass, [r]);
  }
  const boards: ClassBoard[] = [];
  for (const [puzzleClass, list] of [...byClass.entries()].sort((a, b) => a[0].localeCompare(b[0]))) {
    // Scramble ids are global, so results of different matches never pair up by accident.
    const played = list.filter((r) => r.verdict !== 'unsupported');
    if (played.length === 0) continue;
    const declined = new Map<string, number>();
    for (const r of list) if (r.verdict === 'unsupported') declined.set(r.bot, (declined.get(r.bot) ?? 0) + 1);
    const summaries = summarizeBots(played);
    const fit = fitBradleyTerry(pairTallies(played), { players: [...summaries.keys()] });
    boards.push({
      puzzleClass,
      entries: fit.ratings.map((r) => {
        const s = summaries.get(r.name)!;
        return {
          bot: r.name,
          rating: r.rating,
          low: r.low,
          high: r.high,
          games: r.games,
          results: s.results,
          declined: declined.get(r.name) ?? 0,
          solveRate: s.results ? s.solved / s.results : 0,
          meanMoves: s.meanMoves,
          meanGap: s.meanGap,
          medianWallMs: s.medianWallMs,
        };
      }),
    });
  }
  return boards;
}
