import { describe, expect, it } from 'vitest';
import { createRng, type Rng } from '../../src/core/rng.ts';
import { VERDICTS, type Verdict } from '../../src/core/verdict.ts';
import { ratingHistoryOf } from '../../src/stats/rating-history.ts';
import { fitBradleyTerry } from '../../src/stats/bradley-terry.ts';
import { buildLeaderboard, leaderboardOfColumns, PROVISIONAL_GAMES, rankEntries, type ClassBoard } from '../../src/stats/leaderboard.ts';
import { pairTallies, summarizeBots, type PairTally } from '../../src/stats/match-stats.ts';
import { columnsOf } from '../../src/core/summary-columns.ts';
import type { ResultSummary } from '../../src/store/types.ts';

/** The leaderboard as first written, on result objects: the oracle the typed-array version must equal. */
function referenceLeaderboard(rows: readonly ResultSummary[]): ClassBoard[] {
  const byClass = new Map<string, ResultSummary[]>();
  for (const r of rows) byClass.set(r.puzzleClass, [...(byClass.get(r.puzzleClass) ?? []), r]);
  const boards: ClassBoard[] = [];
  for (const [puzzleClass, list] of [...byClass.entries()].sort((a, b) => a[0].localeCompare(b[0]))) {
    const played = list.filter((r) => r.verdict !== 'unsupported');
    if (played.length === 0) continue;
    const declined = new Map<string, number>();
    for (const r of list) if (r.verdict === 'unsupported') declined.set(r.bot, (declined.get(r.bot) ?? 0) + 1);
    const summaries = summarizeBots(played);
    const fit = fitBradleyTerry(pairTallies(played), { players: [...summaries.keys()] });
    boards.push({
      puzzleClass,
      entries: rankEntries(
        fit.ratings.map((r) => {
          const s = summaries.get(r.name)!;
          return {
            bot: r.name, rating: r.rating, low: r.low, high: r.high, games: r.games, results: s.results,
            declined: declined.get(r.name) ?? 0, solveRate: s.results ? s.solved / s.results : 0,
            meanMoves: s.meanMoves, meanGap: s.meanGap, medianWallMs: s.medianWallMs, provisional: r.games < PROVISIONAL_GAMES,
          };
        }),
      ),
    });
  }
  return boards;
}

/** Random results: several matches and classes, bots that decline, ties on moves decided by time or not. */
function randomRows(rng: Rng, n: number): ResultSummary[] {
  const bots = ['zed', 'Alpha', 'alpha', 'b ot', 'ida-star --weight 2', 'é'];
  const classes = ['sliding 3x3', 'sliding 4x4', 'hanoi 10', 'hanoi 10 random-goal'];
  const rows: ResultSummary[] = [];
  let scrambleId = 1 + rng.int(1000);
  for (let m = 1; rows.length < n; m++) {
    const players = bots.filter(() => rng.int(3) > 0);
    const puzzleClass = classes[rng.int(classes.length)];
    const scrambles = 1 + rng.int(8);
    for (let s = 0; s < scrambles; s++, scrambleId += 1 + rng.int(3)) {
      const optimal = 10 + rng.int(20);
      const exact = rng.int(2) === 0;
      for (const bot of players) {
        const verdict: Verdict = rng.int(4) > 0 ? 'solved' : VERDICTS[rng.int(VERDICTS.length)];
        rows.push({
          scrambleId, bot, verdict, moveCount: verdict === 'solved' ? optimal + rng.int(3) : rng.int(5),
          wallMs: rng.int(3) === 0 ? 5 + rng.int(4) : rng.next() / 1e6, matchId: m, scrambleIndex: s, puzzleClass,
          bound: exact ? { optimal, lowerBound: optimal } : { lowerBound: optimal - 2 * rng.int(2) },
        });
      }
    }
  }
  return rows;
}

/** Ratings of one class after each match, as first written: the oracle of the typed-array history. */
function referenceHistory(rows: readonly ResultSummary[], puzzleClass: string) {
  const mine = rows.filter((r) => r.puzzleClass === puzzleClass && r.verdict !== 'unsupported');
  const ids = [...new Set(mine.map((r) => r.matchId))].sort((a, b) => a - b);
  const step = Math.max(1, Math.ceil(ids.length / 24));
  const bots = [...new Set(mine.map((r) => r.bot))].sort();
  const ratings: Record<string, (number | null)[]> = Object.fromEntries(bots.map((b) => [b, []]));
  const matches: number[] = [];
  const tallies: PairTally[] = [];
  ids.forEach((id, i) => {
    tallies.push(...pairTallies(mine.filter((r) => r.matchId === id)));
    if ((ids.length - 1 - i) % step !== 0) return;
    matches.push(id);
    const fit = tallies.length ? fitBradleyTerry(tallies) : undefined;
    const byBot = new Map(fit?.ratings.map((e) => [e.name, e.rating]) ?? []);
    for (const b of bots) ratings[b].push(byBot.has(b) ? Math.round(byBot.get(b)! * 10) / 10 : null);
  });
  return { puzzleClass, matches, ratings };
}

describe('leaderboard on result columns', () => {
  it('equals the object-by-object leaderboard on 200 random seeded databases', () => {
    for (let seed = 0; seed < 200; seed++) {
      const rows = randomRows(createRng(`board ${seed}`), 20 + (seed % 7) * 40);
      expect(buildLeaderboard(rows), `seed ${seed}`).toEqual(referenceLeaderboard(rows));
    }
  });

  it('keeps only the classes asked for, in the same order and with the same numbers', () => {
    const rows = randomRows(createRng('filter'), 400);
    const keep = (c: string) => c.startsWith('hanoi');
    expect(leaderboardOfColumns(columnsOf(rows), keep)).toEqual(referenceLeaderboard(rows.filter((r) => keep(r.puzzleClass))));
  });

  it('rates the history of a class as a fit after each match, declined scrambles left out', () => {
    for (let seed = 0; seed < 60; seed++) {
      const rows = randomRows(createRng(`history ${seed}`), 50 + seed * 20);
      for (const cls of new Set(rows.map((r) => r.puzzleClass))) {
        expect(ratingHistoryOf(rows, cls), `seed ${seed} ${cls}`).toEqual(referenceHistory(rows, cls));
      }
    }
  });

  it('has an empty leaderboard and history without results', () => {
    expect(buildLeaderboard([])).toEqual([]);
    expect(ratingHistoryOf([], 'sliding 3x3')).toEqual({ puzzleClass: 'sliding 3x3', matches: [], ratings: {} });
  });
});
