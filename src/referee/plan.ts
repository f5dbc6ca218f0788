import type { ResultSummary, ScrambleRecord } from '../store/types.ts';

/** One bot's turn on one scramble: the unit of a match. */
export interface Play {
  readonly scramble: ScrambleRecord;
  readonly bot: string;
}

/** The key of a (scramble, bot) pair: a stored result's identity. */
export function playKey(scrambleId: number, bot: string): string {
  return `${scrambleId}\u0000${bot}`;
}

/** The keys of the plays that already have a result. */
export function playedKeys(results: Iterable<Pick<ResultSummary, 'scrambleId' | 'bot'>>): Set<string> {
  const keys = new Set<string>();
  for (const r of results) keys.add(playKey(r.scrambleId, r.bot));
  return keys;
}

/**
 * The plan of a match: every (scramble, bot) play without a result, scramble by scramble in index order.
 * Which bot goes first rotates with the scramble index, so neither bot always meets a cold (or a warm)
 * machine. Pure: the same inputs give the same plan, which is what makes a resumed match play exactly what
 * a killed one left.
 */
export function planPlays(bots: readonly string[], scrambles: readonly ScrambleRecord[], played: ReadonlySet<string>): Play[] {
  const plays: Play[] = [];
  const n = bots.length;
  for (const scramble of scrambles) {
    for (let k = 0; k < n; k++) {
      const bot = bots[(scramble.index + k) % n];
      if (!played.has(playKey(scramble.id, bot))) plays.push({ scramble, bot });
    }
  }
  return plays;
}
