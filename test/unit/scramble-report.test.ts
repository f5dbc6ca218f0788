import { describe, expect, it } from 'vitest';
import type { Verdict } from '../../src/core/verdict.ts';
import { buildScrambleReport, claimContradicted, scrambleWinner } from '../../src/referee/scrambles/scramble-report.ts';
import type { ResultSummary, ScrambleRecord } from '../../src/store/types.ts';

const r = (bot: string, verdict: Verdict, moveCount: number, wallMs: number) => ({ bot, verdict, moveCount, wallMs });

describe('scrambleWinner', () => {
  it('names the bot that beats every other, with the narrowest decision', () => {
    expect(scrambleWinner([r('a', 'solved', 20, 10), r('b', 'timeout', 0, 99)])).toEqual({ winner: 'a', decidedBy: 'verdict' });
    expect(scrambleWinner([r('a', 'solved', 22, 10), r('b', 'solved', 20, 90)])).toEqual({ winner: 'b', decidedBy: 'moves' });
    expect(scrambleWinner([r('a', 'solved', 20, 10), r('b', 'solved', 20, 90)])).toEqual({ winner: 'a', decidedBy: 'time' });
    // Three bots: a beats b on moves and c only on time, so time decided it.
    expect(scrambleWinner([r('a', 'solved', 20, 10), r('b', 'solved', 24, 1), r('c', 'solved', 20, 100)])).toEqual({ winner: 'a', decidedBy: 'time' });
  });

  it('says draw when nobody beats everyone: equal moves within the margin, both unsolved, or a tie at the top', () => {
    expect(scrambleWinner([r('a', 'solved', 20, 100), r('b', 'solved', 20, 105)])).toEqual({ winner: null });
    expect(scrambleWinner([r('a', 'invalid', 3, 1), r('b', 'timeout', 0, 9)])).toEqual({ winner: null });
    expect(scrambleWinner([r('a', 'solved', 20, 10), r('b', 'solved', 20, 10), r('c', 'crash', 0, 1)])).toEqual({ winner: null });
    // An explicit margin of 0 lets any time difference decide.
    expect(scrambleWinner([r('a', 'solved', 20, 100), r('b', 'solved', 20, 105)], { marginMs: 0 })).toEqual({ winner: 'a', decidedBy: 'time' });
  });
});

describe('buildScrambleReport', () => {
  const scramble = (id: number, index: number, optimal: number | undefined, lowerBound: number, boundNote?: string): ScrambleRecord => ({
    id,
    matchId: 1,
    index,
    state: { kind: 'sliding', rows: 2, cols: 2, tiles: [1, 2, 0, 3] },
    puzzleClass: 'sliding 4x4',
    bound: optimal === undefined ? { lowerBound } : { optimal, lowerBound },
    ...(boundNote ? { boundNote } : {}),
  });
  const row = (scrambleId: number, bot: string, verdict: Verdict, moveCount: number, wallMs: number): ResultSummary => ({
    scrambleId, bot, verdict, moveCount, wallMs, matchId: 1, scrambleIndex: scrambleId - 1, puzzleClass: 'sliding 4x4', bound: { lowerBound: 0 },
  });

  it('gives each scramble its bound and note, and a winner only once every bot has a result', () => {
    const out = buildScrambleReport(
      ['a', 'b'],
      [scramble(2, 1, undefined, 40, 'oracle pending'), scramble(1, 0, 50, 50)],
      [row(1, 'a', 'solved', 50, 10), row(1, 'b', 'solved', 52, 5), row(2, 'a', 'solved', 44, 10)],
    );
    expect(out).toEqual([
      { scramble: 1, puzzleClass: 'sliding 4x4', optimal: 50, lowerBound: 50, winner: 'a', decidedBy: 'moves' },
      { scramble: 2, puzzleClass: 'sliding 4x4', lowerBound: 40, boundNote: 'optimum pending' },
    ]);
  });

  it('a decided match lists only the scrambles played, their proofs "optimum pending"; once finished, a proof never made says it was stopped', () => {
    const scrambles = [scramble(1, 0, undefined, 40, 'oracle pending'), scramble(2, 1, undefined, 30, 'oracle pending'), scramble(3, 2, 44, 44)];
    const rows = [row(1, 'a', 'solved', 44, 10), row(1, 'b', 'solved', 46, 5)];
    const notes = (phase: 'playing' | 'decided' | 'finished') => buildScrambleReport(['a', 'b'], scrambles, rows, {}, phase).map((s) => [s.scramble, s.boundNote]);
    expect(notes('playing')).toEqual([[1, 'optimum pending'], [2, 'optimum pending'], [3, undefined]]);
    expect(notes('decided')).toEqual([[1, 'optimum pending']]);
    expect(notes('finished')).toEqual([[1, 'exact search stopped: the match finished first']]);
  });

  it('has no winners in a one-bot run', () => {
    const [s] = buildScrambleReport(['a'], [scramble(1, 0, 50, 50)], [row(1, 'a', 'solved', 50, 10)]);
    expect('winner' in s).toBe(false);
  });
});

describe('claimContradicted', () => {
  it('flags a claimed optimum longer than the exact optimum, nothing else', () => {
    expect(claimContradicted({ verdict: 'solved', moveCount: 54, claimedOptimal: true }, { optimal: 52, lowerBound: 52 })).toBe(true);
    expect(claimContradicted({ verdict: 'solved', moveCount: 52, claimedOptimal: true }, { optimal: 52, lowerBound: 52 })).toBe(false);
    expect(claimContradicted({ verdict: 'solved', moveCount: 54, claimedOptimal: false }, { optimal: 52, lowerBound: 52 })).toBe(false);
    expect(claimContradicted({ verdict: 'solved', moveCount: 54, claimedOptimal: true }, { lowerBound: 50 })).toBe(false);
    expect(claimContradicted({ verdict: 'invalid', moveCount: 54, claimedOptimal: true }, { optimal: 52, lowerBound: 52 })).toBe(false);
  });
});
