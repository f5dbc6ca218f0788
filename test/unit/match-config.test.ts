import { describe, expect, it } from 'vitest';
import { MATCH_LIMITS, parseMatchConfig, startTimeoutMs, tieBreakOf } from '../../src/referee/match-config.ts';
import { planPlays, playedKeys } from '../../src/referee/plan.ts';
import type { ScrambleRecord } from '../../src/store/types.ts';

const good = { bots: ['a', 'b'], spec: { kind: 'sliding', rows: 3, cols: 3 }, count: 5, seed: '7', timeLimitMs: 1000, maxMoves: 100, concurrency: 1 };

describe('match config', () => {
  it('parseMatchConfig - accepts a stored config and refuses anything outside the limits, naming the field', () => {
    expect(parseMatchConfig(good)).toEqual({ ok: true, value: good });
    expect(parseMatchConfig({ ...good, memoryLimitBytes: 2 ** 30 })).toEqual({ ok: true, value: { ...good, memoryLimitBytes: 2 ** 30 } });
    expect(parseMatchConfig({ ...good, scoreBy: 'cpu' })).toEqual({ ok: true, value: { ...good, scoreBy: 'cpu' } });
    const bad: Array<[object, RegExp]> = [
      [{ ...good, timeLimitMs: 2 ** 31 }, /timeLimitMs/],
      [{ ...good, timeLimitMs: 0 }, /timeLimitMs/],
      [{ ...good, maxMoves: null }, /maxMoves/],
      [{ ...good, maxMoves: MATCH_LIMITS.maxMoves.max + 1 }, /maxMoves/],
      [{ ...good, concurrency: 1000 }, /concurrency/],
      [{ ...good, count: 1e9 }, /count/],
      [{ ...good, seed: '' }, /seed/],
      [{ ...good, bots: [] }, /bots/],
      [{ ...good, bots: ['a', 'a'] }, /named twice/],
      [{ ...good, spec: { kind: 'cube' } }, /spec.kind/],
      [{ ...good, extra: 1 }, /config/],
      [{ ...good, concurrency: 1.5 }, /concurrency/],
      [{ ...good, memoryLimitBytes: 1024 }, /memoryLimitBytes/],
      [{ ...good, memoryLimitBytes: 2 ** 41 }, /memoryLimitBytes/],
      [{ ...good, scoreBy: 'gpu' }, /scoreBy/],
    ];
    for (const [config, where] of bad) expect(parseMatchConfig(config), JSON.stringify(config)).toMatchObject({ ok: false, reason: expect.stringMatching(where) });
    expect(parseMatchConfig(null)).toMatchObject({ ok: false });
    expect(parseMatchConfig('{"bots":["a"]}')).toMatchObject({ ok: false });
  });

  it('tieBreakOf - the stored margin and clock, absent fields left to the defaults', () => {
    expect(tieBreakOf({})).toEqual({});
    expect(tieBreakOf({ marginMs: 0, scoreBy: 'cpu' })).toEqual({ marginMs: 0, scoreBy: 'cpu' });
  });

  it('startTimeoutMs - follows the time limit between a floor and a ceiling', () => {
    expect(startTimeoutMs({ timeLimitMs: 100 })).toBe(10_000);
    expect(startTimeoutMs({ timeLimitMs: 30_000 })).toBe(60_000);
    expect(startTimeoutMs({ timeLimitMs: 86_400_000 })).toBe(120_000);
  });
});

describe('planner', () => {
  const scrambles = [0, 1, 2].map((index): ScrambleRecord => ({ id: 10 + index, matchId: 1, index, state: { kind: 'swaps', rows: 1, cols: 2, tiles: [2, 1] }, puzzleClass: 'swaps 1x2', bound: { lowerBound: 1 } }));

  it('planPlays - every missing (scramble, bot) once, scramble by scramble, first bot rotating', () => {
    const plan = planPlays(['a', 'b', 'c'], scrambles, new Set());
    expect(plan.map((p) => `${p.scramble.index}${p.bot}`)).toEqual(['0a', '0b', '0c', '1b', '1c', '1a', '2c', '2a', '2b']);
  });

  it('planPlays - skips what has a result, so a resumed match plays exactly the rest', () => {
    const played = playedKeys([
      { scrambleId: 10, bot: 'b' },
      { scrambleId: 12, bot: 'a' },
      { scrambleId: 12, bot: 'b' },
      { scrambleId: 99, bot: 'a' },
    ]);
    expect(planPlays(['a', 'b'], scrambles, played).map((p) => `${p.scramble.index}${p.bot}`)).toEqual(['0a', '1b', '1a']);
  });
});
