import { describe, expect, it } from 'vitest';
import type { Verdict } from '../../src/core/verdict.ts';
import { columnsOf } from '../../src/core/summary-columns.ts';
import { BoardTallies } from '../../src/stats/board-tallies.ts';
import { buildLeaderboard, PROVISIONAL_GAMES } from '../../src/stats/leaderboard.ts';
import { formatLeaderboard } from '../../src/cli/commands/leaderboard.ts';
import { leaderboardRows } from '../../src/app/records/export.ts';
import type { ResultSummary } from '../../src/store/types.ts';

let nextScramble = 0;
function row(scrambleId: number, bot: string, verdict: Verdict, moveCount: number, wallMs: number): ResultSummary {
  return { scrambleId, bot, verdict, moveCount, wallMs, matchId: 1, scrambleIndex: scrambleId, puzzleClass: 'sliding 3x3', bound: { optimal: 20, lowerBound: 20 } };
}

/**
 * The issue's board: reference-bfs solved all of 20 scrambles but slower than ida-star (20 lost games),
 * crashbot crashed on all of its 3 (3 lost games): by rating alone crashbot ranks above reference-bfs.
 */
function issueRows(): ResultSummary[] {
  const rows: ResultSummary[] = [];
  for (let i = 0; i < 20; i++) {
    const s = nextScramble++;
    rows.push(row(s, 'ida-star', 'solved', 20, 5), row(s, 'reference-bfs', 'solved', 20, 400));
  }
  for (let i = 0; i < 3; i++) {
    const s = nextScramble++;
    rows.push(row(s, 'ida-star', 'solved', 20, 5), row(s, 'crashbot', 'crash', 0, 1));
  }
  return rows;
}

describe('leaderboard ranking', () => {
  it('leaderboard - a 3-game all-crash bot ranks below a 20-game all-solved one', () => {
    const [board] = buildLeaderboard(issueRows());
    const by = new Map(board!.entries.map((e) => [e.bot, e]));
    // The point estimate alone would put crashbot first of the two: the rule, not the fit, decides.
    expect(by.get('crashbot')!.rating).toBeGreaterThan(by.get('reference-bfs')!.rating);
    expect(board!.entries.map((e) => e.bot)).toEqual(['ida-star', 'reference-bfs', 'crashbot']);
    expect(board!.entries.map((e) => e.provisional)).toEqual([false, false, true]);
  });

  it('leaderboard - an entry turns established at PROVISIONAL_GAMES games', () => {
    const rows: ResultSummary[] = [];
    for (let i = 0; i < PROVISIONAL_GAMES; i++) {
      const s = nextScramble++;
      rows.push(row(s, 'a', 'solved', 20, 5), row(s, 'b', 'solved', 22, 5));
    }
    const [board] = buildLeaderboard(rows);
    expect(board!.entries.every((e) => !e.provisional && e.games === PROVISIONAL_GAMES)).toBe(true);
    const [fewer] = buildLeaderboard(rows.slice(2));
    expect(fewer!.entries.every((e) => e.provisional)).toBe(true);
    // All provisional: ranked among themselves by rating as before.
    expect(fewer!.entries.map((e) => e.bot)).toEqual(['a', 'b']);
  });

  it('board tallies - the incremental board ranks as the full fit does', () => {
    const rows = issueRows();
    const tallies = new BoardTallies();
    const c = columnsOf(rows);
    tallies.add(c, Int32Array.from({ length: rows.length }, (_, i) => i));
    expect(tallies.boards(c).map((b) => b.entries.map((e) => [e.bot, e.provisional]))).toEqual(buildLeaderboard(rows).map((b) => b.entries.map((e) => [e.bot, e.provisional])));
  });

  it('leaderboard table and export - say which entries are provisional', () => {
    const boards = buildLeaderboard(issueRows());
    const text = formatLeaderboard(boards);
    expect(text).toMatch(/3\s+crashbot \(provisional\)/);
    expect(text).toContain(`provisional: fewer than ${PROVISIONAL_GAMES} head-to-head games`);
    expect(leaderboardRows(boards).map((r) => [r.rank, r.bot, r.provisional])).toEqual([
      [1, 'ida-star', false],
      [2, 'reference-bfs', false],
      [3, 'crashbot', true],
    ]);
  });
});
