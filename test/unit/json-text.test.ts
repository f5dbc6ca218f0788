import { describe, expect, it } from 'vitest';
import { jsonText, jsonValue } from '../../src/app/records/json-text.ts';
import { pairStats } from '../../src/stats/match-stats.ts';

describe('jsonText', () => {
  it('json-text - an undefeated pair writes its infinite Elo as "Infinity", which Number() reads back; null stays null', () => {
    const s = pairStats({ wins: 5, draws: 0, losses: 0 });
    expect(s.elo).toBe(Infinity);
    const back = JSON.parse(jsonText({ pair: s })) as { pair: Record<string, unknown> };
    expect(back.pair.elo).toBe('Infinity');
    expect(back.pair.eloHigh).toBe('Infinity');
    expect(Number(back.pair.elo)).toBe(Infinity);
    // Finite values are numbers as before; an estimate with nothing to estimate is still null.
    expect(typeof back.pair.eloLow).toBe('number');
    expect(back.pair.nElo).toBeNull();
    expect(JSON.parse(jsonText(pairStats({ wins: 0, draws: 0, losses: 3 })))).toMatchObject({ elo: '-Infinity', eloLow: '-Infinity' });
    expect(jsonValue({ a: [1, -Infinity, null] })).toEqual({ a: [1, '-Infinity', null] });
    expect(JSON.parse(jsonText(pairStats({ wins: 0, draws: 0, losses: 0 })))).toMatchObject({ elo: null, score: null });
  });
});
