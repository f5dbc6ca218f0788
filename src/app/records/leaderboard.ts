import type { ClassBoard } from '../../stats/leaderboard.ts';
import type { AppContext } from '../context.ts';
import { ratedResults } from './rated-results.ts';

export type { ClassBoard, LeaderboardEntry } from '../../stats/leaderboard.ts';
export { PROVISIONAL_GAMES } from '../../stats/leaderboard.ts';
export type { RatingHistory } from '../../stats/rating-history.ts';

/** Which results the leaderboard rates. */
export interface LeaderboardOptions {
  /** A kind name (every class of that kind) or one class (e.g. "sliding 4x4"); absent: every class. */
  readonly puzzleClass?: string;
}

/** True when `puzzleClass` is selected by `filter`: the class itself or every class of a kind. */
export function classMatches(puzzleClass: string, filter: string | undefined): boolean {
  return filter === undefined || puzzleClass === filter || puzzleClass.startsWith(`${filter} `);
}

/** Fits a rating per puzzle class from every stored head-to-head scramble (optionally some classes). */
export async function leaderboard(ctx: AppContext, o: LeaderboardOptions = {}): Promise<ClassBoard[]> {
  const rated = await ratedResults(ctx);
  // Each class's board is fitted on its own, so picking boards equals fitting only the picked classes.
  return o.puzzleClass === undefined ? rated.boards() : rated.boards().filter((b) => classMatches(b.puzzleClass, o.puzzleClass));
}
