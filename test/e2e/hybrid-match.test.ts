import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnArena } from './helpers.ts';

// The hybrid bot against the constructive bot through the real CLI, referee, WebSocket and SQLite file, at
// the default time limit (10 s): every scramble solved by both, and the hybrid shorter on every one.
const dir = mkdtempSync(join(tmpdir(), 'arena-hybrid-'));

interface Result {
  scramble: number;
  bot: string;
  verdict: string;
  moves: number;
  timeMs: number;
  lowerBound: number;
  reason?: string;
}

describe('hybrid e2e - arena match hybrid constructive', () => {
  for (const size of [8, 10]) {
    it(`--puzzle sliding --size ${size}: 5 scrambles, all solved in time, hybrid wins on moves`, async () => {
      const args = ['match', 'hybrid', 'constructive', '--puzzle', 'sliding', '--size', String(size), '--count', '5', '--seed', `e2e-hybrid-${size}`, '--json'];
      const r = await spawnArena(args, { ARENA_DB: join(dir, `hybrid-${size}.db`) }).done;
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(r.code, r.stderr).toBe(0);
      const report = JSON.parse(r.stdout) as { results: Result[] };
      expect(report.results).toHaveLength(10);
      for (const x of report.results) {
        expect({ bot: x.bot, verdict: x.verdict, reason: x.reason }).toEqual({ bot: x.bot, verdict: 'solved', reason: undefined });
        expect(x.moves).toBeGreaterThanOrEqual(x.lowerBound);
      }
      for (let s = 1; s <= 5; s++) {
        const hybrid = report.results.find((x) => x.scramble === s && x.bot === 'hybrid')!;
        const constructive = report.results.find((x) => x.scramble === s && x.bot === 'constructive')!;
        expect(hybrid.moves, `scramble ${s}`).toBeLessThan(constructive.moves);
      }
    }, 240_000);
  }
});
