import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/rng.ts';
import type { PuzzleState } from '../../src/core/types.ts';
import { puzzles } from '../../src/puzzles/index.ts';
import type { MatchConfig } from '../../src/referee/match-config.ts';
import { runNewMatch } from '../../src/referee/run-match.ts';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import { systemClock } from '../../src/transport/system-clock.ts';
import { startArenaServer, type ArenaServer } from '../../src/transport/ws-server.ts';
import { fixtureLauncher } from './helpers.ts';

// Real parts: a WebSocket server on loopback, a SQLite file in a temp dir, spawned bot processes.
let server: ArenaServer;
beforeAll(async () => {
  server = await startArenaServer({ authenticate: () => undefined });
});
afterAll(async () => {
  await server.close();
});

const EXPECTED = {
  instant: 'solved',
  garbage: 'protocol',
  illegal: 'invalid',
  silent: 'timeout',
  crasher: 'crash',
  flood: 'protocol',
  'wrong-token': 'crash',
} as const;

describe('referee e2e - hostile bots', () => {
  it('gives each hostile bot its verdict while the good bot carries on, and records every result', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arena-e2e-'));
    const file = join(dir, 'results.db');
    const store = openSqliteStore(file);
    const rng = createRng('hostile');
    const states: PuzzleState[] = [0, 1].map(() => puzzles.sliding.scramble({ kind: 'sliding', rows: 2, cols: 2 }, rng));
    const bots = Object.keys(EXPECTED);
    const config: MatchConfig = { bots, count: states.length, seed: 'hostile', timeLimitMs: 2_000, maxMoves: 1_000, concurrency: 1 };
    const run = await runNewMatch(config, states, { store, clock: systemClock, makeLauncher: (b) => fixtureLauncher(b, server) });
    expect(run.status).toBe('finished');
    await store.close();

    // Reopen the file: what the referee committed is what a later reader sees.
    const again = openSqliteStore(file);
    const rows = await again.listResults(run.match.id);
    await again.close();
    expect(rows).toHaveLength(bots.length * states.length);
    for (const r of rows) {
      expect({ bot: r.bot, verdict: r.verdict }).toEqual({ bot: r.bot, verdict: EXPECTED[r.bot as keyof typeof EXPECTED] });
      if (r.verdict !== 'solved') expect(r.error, `${r.bot} has a reason`).toBeTruthy();
    }
    const illegal = rows.filter((r) => r.bot === 'illegal');
    // Every 2x2 has the blank on one of two rows: 'UUUUUU' fails at move 0 or 1, never later.
    for (const r of illegal) expect(r.errorIndex).toBeLessThanOrEqual(1);
    const instant = rows.filter((r) => r.bot === 'instant');
    for (const r of instant) expect(r.moveCount).toBe(r.bound.optimal);
    expect(rows.find((r) => r.bot === 'flood')!.error).toMatch(/larger than/);
    expect(rows.find((r) => r.bot === 'wrong-token')!.error).toMatch(/401|could not start/);
  });
});
