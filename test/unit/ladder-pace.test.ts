import { describe, expect, it } from 'vitest';
import { ladderPace, PACE_WINDOW_MS } from '../../src/app/ladder/ladder-pace.ts';

const at = (ms: number) => ({ createdAt: new Date(ms).toISOString() });
const T = Date.parse('2026-01-01T12:00:00Z');

describe('ladder pace - games per minute over the last minutes', () => {
  it('ladder pace - counts the games of the window, since the first game when that is later', () => {
    // Ten games, one every 6 s, the last one now: 9 intervals of 6 s, 54 s.
    const games = Array.from({ length: 10 }, (_, i) => at(T - 54_000 + i * 6000));
    const p = ladderPace(games, T, true)!;
    expect(p.games).toBe(10);
    expect(p.minutes).toBeCloseTo(0.9);
    expect(p.perMinute).toBeCloseTo(10 / 0.9);
  });

  it('ladder pace - only the last five minutes count while running; a stopped ladder ends its window at its last game', () => {
    const old = Array.from({ length: 100 }, (_, i) => at(T - 3_600_000 + i * 1000));
    const recent = Array.from({ length: 5 }, (_, i) => at(T - 60_000 * (i + 1)));
    const running = ladderPace([...old, ...recent], T, true)!;
    expect(running.minutes).toBeCloseTo(PACE_WINDOW_MS / 60_000);
    expect(running.games).toBe(5);
    // Stopped an hour ago after its burst: 100 games in 99 s.
    const stopped = ladderPace(old, T, false)!;
    expect(stopped.games).toBe(100);
    expect(stopped.perMinute).toBeCloseTo(100 / (99 / 60));
  });

  it('ladder pace - none before two games', () => {
    expect(ladderPace([], T, true)).toBeUndefined();
    expect(ladderPace([at(T)], T, true)).toBeUndefined();
  });
});
