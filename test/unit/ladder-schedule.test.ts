/**
 * The ladder's decisions: check before play, placement against the closest rating until the interval is
 * narrow enough, upkeep on the most overlapping pair and never on a separated one, and a reason each time.
 */
import { describe, expect, it } from 'vitest';
import type { VersionRating } from '../../src/app/ladder/ladder-ratings.ts';
import { classProgress, decide, type FieldVersion, type ScheduleInput } from '../../src/app/ladder/ladder-schedule.ts';

const CLS = 'sliding 3x3';
const rule = { targetWidth: 200, minGames: 10, maxGames: 50 };
const v = (id: number, status: FieldVersion['status'], classes = [CLS]): FieldVersion => ({ id, bot: `b${id}`, label: `b${id} v1`, status, classes });
const r = (versionId: number, rating: number, half: number, games: number): VersionRating => ({
  versionId, rating, low: rating - half, high: rating + half, games, results: games, declined: 0, solveRate: 1, meanMoves: null, meanGap: null, medianWallMs: null, provisional: games < 10,
});
const input = (field: FieldVersion[], ratings: VersionRating[], over: Partial<ScheduleInput> = {}): ScheduleInput => ({
  classes: [CLS],
  field,
  boards: new Map([[CLS, new Map(ratings.map((x) => [x.versionId, x]))]]),
  together: () => 0,
  rule,
  budgetLeft: 100,
  ...over,
});

describe('ladder schedule', () => {
  it('decide - a new version is checked before anything is played', () => {
    const d = decide(input([v(1, 'placed'), v(2, 'placing'), v(3, 'new')], []));
    expect(d).toMatchObject({ kind: 'check', version: { id: 3 } });
    expect(d.why).toMatch(/checked \(bot check, confined\) before it plays/);
  });

  it('decide - placement plays the closest rating, fewer games together breaking near ties', () => {
    const field = [v(1, 'placed'), v(2, 'placed'), v(3, 'placed'), v(4, 'placing')];
    const ratings = [r(1, 300, 50, 40), r(2, 40, 50, 40), r(3, -200, 50, 40), r(4, 0, 300, 4)];
    expect(decide(input(field, ratings))).toMatchObject({ kind: 'play', purpose: 'placement', a: { id: 4 }, b: { id: 2 }, subject: { id: 4 } });
    // Two games with b2 already: b3 (200 away) costs less than b2 (40 + 200).
    const met = decide(input(field, ratings, { together: (_c, a, b) => (a + b === 6 ? 2 : 0) }));
    expect(met).toMatchObject({ kind: 'play', b: { id: 3 } });
    expect(met.why).toMatch(/placing b4 v1 on sliding 3x3 \(4 of at least 10 games\): against b3 v1/);
  });

  it('decide - placed once the interval is narrow enough after the minimum, or at the most games', () => {
    const field = [v(1, 'placed'), v(2, 'placing')];
    expect(decide(input(field, [r(1, 0, 50, 40), r(2, 10, 90, 12)]))).toMatchObject({ kind: 'placed', version: { id: 2 } });
    expect(decide(input(field, [r(1, 0, 50, 40), r(2, 10, 90, 8)]))).toMatchObject({ kind: 'play', purpose: 'placement' });
    expect(decide(input(field, [r(1, 0, 50, 40), r(2, 10, 400, 50)]))).toMatchObject({ kind: 'placed' });
    expect(classProgress(r(2, 10, 400, 50), rule).why).toMatch(/50 games, the most a placement plays/);
  });

  it('decide - a version alone in its class, or playing none, is placed without a game', () => {
    expect(decide(input([v(1, 'placing')], []))).toMatchObject({ kind: 'placed', version: { id: 1 } });
    expect(decide(input([v(1, 'placed'), v(2, 'placing', [])], [r(1, 0, 50, 10)])).why).toMatch(/plays none of the ladder classes/);
  });

  it('decide - upkeep plays the pair whose intervals overlap most', () => {
    const field = [v(1, 'placed'), v(2, 'placed'), v(3, 'placed')];
    // b1 [250, 350] and b2 [150, 250] touch only; b2 and b3 [120, 220] overlap by 70.
    const d = decide(input(field, [r(1, 300, 50, 40), r(2, 200, 50, 40), r(3, 170, 50, 40)]));
    expect(d).toMatchObject({ kind: 'play', purpose: 'upkeep', a: { id: 2 }, b: { id: 3 } });
    expect(d.why).toMatch(/overlap by 70 Elo, the most of any pair; 100 upkeep scramble\(s\) left/);
  });

  it('decide - separated pairs are never played, and a spent budget waits', () => {
    const field = [v(1, 'placed'), v(2, 'placed')];
    const apart = decide(input(field, [r(1, 300, 50, 40), r(2, 100, 50, 40)]));
    expect(apart).toMatchObject({ kind: 'idle' });
    expect(apart.why).toMatch(/all 1 pairs of placed bots are separated/);
    const spent = decide(input(field, [r(1, 120, 50, 40), r(2, 100, 50, 40)], { budgetLeft: 0 }));
    expect(spent).toMatchObject({ kind: 'idle' });
    expect(spent.why).toMatch(/upkeep budget is spent/);
  });

  it('decide - failed and unchecked versions are no opponents', () => {
    const d = decide(input([v(1, 'failed'), v(2, 'placing'), v(3, 'placed')], [r(1, 0, 10, 100), r(3, 500, 50, 40)]));
    expect(d).toMatchObject({ kind: 'play', b: { id: 3 } });
  });
});
