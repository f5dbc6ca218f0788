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
  it('the first timed solve carries no graph build: its compute time is within 5x the median, and under the graph build', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'arena-warmup-')), 'arena.db');
    const r = await spawnArena(['match', 'dijkstra', '--puzzle', 'sliding', '--size', '3', '--count', '25', '--seed', '3', '--json', '--db', db], {})
      .done;
    expect(r.code, r.stderr).toBe(0);
    const rows = (JSON.parse(r.stdout) as { results: Row[] }).results.sort((a, b) => a.scramble - b.scramble);
    expect(rows.every((x) => x.verdict === 'solved')).toBe(true);
    // The bot's own compute time (to the microsecond) is the work the warm-up moves out of the timed window:
    // the 181,440-state graph, 150 ms idle and 700 ms on a loaded machine, used to land in the first solve.
    // It is what this test checks, because it is far less exposed to the scheduling noise of a shared
    // machine than the referee's wall time, which also carries both sides' first pass through the message
    // path (the benchmark reports that: npm run bench -- --only statistics).
    const compute = rows.map((x) => x.reportedMs!);
    // A solve of 0.03 ms can still come out 0.17 ms the first time (its first calls, or one preemption: seen
    // once in a fresh-clone run), so the bound is never under 2 ms: still 75x below the graph build it looks for.
    const floor = 2;
    expect(compute[0], `first ${compute[0]} ms, median ${median(compute)} ms`).toBeLessThanOrEqual(5 * Math.max(median(compute), floor));
  });
});
