import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnArena } from './helpers.ts';

interface Row {
  readonly scramble: number;
  readonly verdict: string;
  readonly timeMs: number;
  readonly reportedMs?: number;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

describe('warm-up e2e - dijkstra prepares before its first timed 3x3 solve', () => {
  it('the first timed solve carries no graph build: within 5x the median, on the bot clock and the referee clock', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'arena-warmup-')), 'arena.db');
    const r = await spawnArena(['match', 'dijkstra', '--puzzle', 'sliding', '--size', '3', '--count', '25', '--seed', '3', '--json', '--db', db], {})
      .done;
    expect(r.code, r.stderr).toBe(0);
    const rows = (JSON.parse(r.stdout) as { results: Row[] }).results.sort((a, b) => a.scramble - b.scramble);
    expect(rows.every((x) => x.verdict === 'solved')).toBe(true);
    // The bot's own compute time is the work the warm-up moves out of the timed window (the 181,440-state
    // graph, about 150 ms, used to land in the first solve); it is immune to the referee's scheduling.
    const compute = rows.map((x) => x.reportedMs!);
    expect(compute[0]).toBeLessThanOrEqual(5 * median(compute.slice(1)) + 0.05);
    // The referee's wall time includes the round trip and the referee's own first-call costs.
    const wall = rows.map((x) => x.timeMs);
    expect(wall[0], `first ${wall[0]} ms, median ${median(wall)} ms`).toBeLessThanOrEqual(5 * median(wall));
  });
});
