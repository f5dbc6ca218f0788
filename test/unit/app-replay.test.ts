import { describe, expect, it } from 'vitest';
import { checkReplay, findMatchBot } from '../../src/app/records/replay.ts';
import type { MatchRecord } from '../../src/store/types.ts';

const match = { id: 3, bots: ['ida-star', 'ida-star --weight 2', 'constructive'] } as unknown as MatchRecord;

describe('replay service', () => {
  it('findMatchBot - a recorded name, a name with one variant, and clear rejections', () => {
    expect(findMatchBot(match, 'ida-star --weight 2')).toEqual({ ok: true, value: 'ida-star --weight 2' });
    expect(findMatchBot(match, 'ida-star')).toEqual({ ok: true, value: 'ida-star' });
    expect(findMatchBot(match, 'constructive')).toEqual({ ok: true, value: 'constructive' });
    expect(findMatchBot({ ...match, bots: ['ida-star --weight 2', 'ida-star --weight 3'] }, 'ida-star')).toMatchObject({ ok: false, code: 'ambiguous-bot' });
    expect(findMatchBot(match, 'dijkstra')).toMatchObject({ ok: false, reason: 'bot "dijkstra" is not in match 3 (its bots: "ida-star", "ida-star --weight 2", "constructive")' });
  });

  it('checkReplay - agrees only when today\'s validation gives what was recorded', () => {
    expect(checkReplay({ verdict: 'solved', moveCount: 5 }, { verdict: 'solved', moves: 5 }).ok).toBe(true);
    expect(checkReplay({ verdict: 'solved', moveCount: 5 }, { verdict: 'solved', moves: 4 }).ok).toBe(false);
    expect(checkReplay({ verdict: 'solved', moveCount: 5 }, { verdict: 'invalid', moves: 2, index: 2, reason: 'bad' })).toEqual({
      ok: false,
      text: 'MISMATCH: recorded solved in 5 moves, but the stored moves are not solved: bad',
    });
    expect(checkReplay({ verdict: 'timeout', moveCount: 0 }, { verdict: 'invalid', moves: 0, reason: 'not solved after the last move' }).ok).toBe(true);
    expect(checkReplay({ verdict: 'invalid', moveCount: 3 }, { verdict: 'solved', moves: 9 }).ok).toBe(false);
  });
});
