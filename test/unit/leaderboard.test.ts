import { describe, expect, it } from 'vitest';
import type { Verdict } from '../../src/core/verdict.ts';
import { createRng } from '../../src/core/rng.ts';
import { puzzles } from '../../src/puzzles/index.ts';
import { buildLeaderboard } from '../../src/stats/leaderboard.ts';
import type { ResultSummary } from '../../src/store/types.ts';

function row(scrambleId: number, bot: string, verdict: Verdict, moveCount: number, puzzleClass = 'sliding 3x3'): ResultSummary {
  return {
    scrambleId,
    bot,
    verdict,
    moveCount,
    wallMs: 10,
    matchId: 1,
    scrambleIndex: scrambleId,
    puzzleClass,
    bound: { optimal: 20, lowerBound: 20 },
  };
}

describe('buildLeaderboard', () => {
  it('leaves unsupported scrambles out of the games and the solve rate', () => {
    const rows: ResultSummary[] = [];
    for (let s = 0; s < 10; s++) {
      rows.push(row(s, 'a', 'solved', 20), row(s, 'b', s < 4 ? 'unsupported' : 'solved', 22));
    }
    const [board] = buildLeaderboard(rows);
    const a = board.entries.find((e) => e.bot === 'a')!;
    const b = board.entries.find((e) => e.bot === 'b')!;
    expect(a.games).toBe(6);
    expect(b.games).toBe(6);
    expect(b).toMatchObject({ results: 6, declined: 4, solveRate: 1 });
    expect(a).toMatchObject({ results: 10, declined: 0, solveRate: 1 });
    // The same six games without the declined scrambles give the same ratings.
    const [only] = buildLeaderboard(rows.filter((r) => r.verdict !== 'unsupported'));
    expect(only.entries.map((e) => [e.bot, e.rating])).toEqual(board.entries.map((e) => [e.bot, e.rating]));
  });

  it('does not list a bot that declined everything in a class, nor a class where everything was declined', () => {
    const rows = [
      row(1, 'a', 'solved', 20),
      row(1, 'b', 'solved', 21),
      row(1, 'hanoi-only', 'unsupported', 0),
      row(2, 'hanoi-only', 'unsupported', 0, 'sliding 4x4'),
    ];
    const boards = buildLeaderboard(rows);
    expect(boards.map((b) => b.puzzleClass)).toEqual(['sliding 3x3']);
    expect(boards[0].entries.map((e) => e.bot).sort()).toEqual(['a', 'b']);
    expect(boards[0].entries.every((e) => e.games === 1)).toBe(true);
  });

  it('still counts every other non-solved verdict as a result and a lost game', () => {
    const rows = [row(1, 'a', 'solved', 20), row(1, 'b', 'timeout', 0), row(2, 'a', 'solved', 20), row(2, 'b', 'invalid', 3)];
    const [board] = buildLeaderboard(rows);
    const b = board.entries.find((e) => e.bot === 'b')!;
    expect(b).toMatchObject({ games: 2, results: 2, declined: 0, solveRate: 0 });
    expect(board.entries[0].bot).toBe('a');
  });
});

describe('hanoi puzzle classes', () => {
  it('rate a random goal apart from towers gathered on one peg', () => {
    const rng = createRng('hanoi classes');
    const tower = puzzles.hanoi.scramble({ kind: 'hanoi', discs: 10 }, rng);
    expect(puzzles.hanoi.className(tower)).toBe('hanoi 10');
    expect(puzzles.hanoi.className({ kind: 'hanoi', pegs: 3, start: 'AAA', goal: 'BBB' })).toBe('hanoi 3');
    let randomGoals = 0;
    for (let i = 0; i < 20; i++) {
      const s = puzzles.hanoi.scramble({ kind: 'hanoi', discs: 10, randomGoal: true }, rng);
      const name = puzzles.hanoi.className(s);
      const spread = s.kind === 'hanoi' && new Set(s.goal).size > 1;
      expect(name).toBe(spread ? 'hanoi 10 random-goal' : 'hanoi 10');
      if (spread) randomGoals++;
    }
    expect(randomGoals).toBeGreaterThan(15);
  });
});
