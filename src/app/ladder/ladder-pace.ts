/**
 * How fast the ladder plays: games started per minute over the last few minutes, from each game's stored
 * start (`createdAt`), so `arena ladder status` shows it for a ladder running in another process or one
 * that has stopped (then the window ends at its last game, not now).
 */
import type { LadderGame } from '../../store/ladder-types.ts';

/** The window the pace is taken over, ms. */
export const PACE_WINDOW_MS = 5 * 60_000;

/** Games per minute over a window. */
export interface LadderPace {
  /** Games started within the window. */
  readonly games: number;
  /** The window's length, minutes: the last {@link PACE_WINDOW_MS}, or since the first game when that is later. */
  readonly minutes: number;
  readonly perMinute: number;
}

/**
 * The pace of `games` (any order) over the window ending at `now`, or at the last game when the ladder is
 * not running; undefined without two games to measure between.
 */
export function ladderPace(games: readonly Pick<LadderGame, 'createdAt'>[], now: number, running: boolean): LadderPace | undefined {
  const times = games.map((g) => Date.parse(g.createdAt)).filter(Number.isFinite).sort((a, b) => a - b);
  if (times.length < 2) return undefined;
  const end = running ? Math.max(now, times[times.length - 1]!) : times[times.length - 1]!;
  const start = Math.max(end - PACE_WINDOW_MS, times[0]!);
  const inWindow = times.filter((t) => t >= start && t <= end).length;
  const minutes = (end - start) / 60_000;
  if (minutes <= 0) return undefined;
  return { games: inWindow, minutes, perMinute: inWindow / minutes };
}
