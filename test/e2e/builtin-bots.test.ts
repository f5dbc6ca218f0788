import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/rng.ts';
import type { PuzzleState, ScrambleSpec } from '../../src/core/types.ts';
import { puzzles } from '../../src/puzzles/index.ts';
import { runNewMatch } from '../../src/referee/run-match.ts';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import type { ResultRow, Store } from '../../src/store/types.ts';
import { builtinBotCommand } from '../../src/transport/process/builtin-bots.ts';
import { createProcessLauncher } from '../../src/transport/process/process-launcher.ts';
import { systemClock } from '../../src/transport/system-clock.ts';
import { startArenaServer, type ArenaServer } from '../../src/transport/ws-server.ts';
import { ROOT } from './helpers.ts';
import { confinedIfAble } from '../helpers/sandbox.ts';

// Every built-in bot, spawned as its own process in the sandbox, through the real referee, WebSocket and
// SQLite file, at the sizes the issues name; the referee validates every move and knows the optimum where
// one exists.
let server: ArenaServer;
let store: Store;
beforeAll(async () => {
  server = await startArenaServer({ authenticate: () => undefined });
  store = openSqliteStore(join(mkdtempSync(join(tmpdir(), 'arena-bots-')), 'bots.db'));
});
afterAll(async () => {
  await store.close();
  await server.close();
});

async function play(bots: string[], states: PuzzleState[], timeLimitMs = 60_000): Promise<ResultRow[]> {
  const run = await runNewMatch({ bots, count: states.length, seed: 'builtin', timeLimitMs, maxMoves: 50_000_000, concurrency: 1 }, states, {
    store,
    clock: systemClock,
    makeLauncher: (bot) => {
      const [name, ...extra] = bot.split(' ');
      const cmd = builtinBotCommand(name, ROOT)!;
      const confine = confinedIfAble(cmd.entry);
      return createProcessLauncher({ name: bot, command: cmd.command, args: [...cmd.args, ...extra], server, startTimeoutMs: 60_000, ...confine });
    },
  });
  expect(run.status).toBe('finished');
  return store.listResults(run.match.id);
}

function scrambles(spec: ScrambleSpec, n: number, seed: string): PuzzleState[] {
  const rng = createRng(seed);
  const p = puzzles[spec.kind];
  const norm = p.normalizeSpec(spec);
  if (!norm.ok) throw new Error(norm.reason);
  return Array.from({ length: n }, () => p.scramble(norm.value, rng));
}

function expectSolved(rows: ResultRow[], optimalBots: string[]): void {
  for (const r of rows) {
    expect({ bot: r.bot, verdict: r.verdict, error: r.error }).toEqual({ bot: r.bot, verdict: 'solved', error: undefined });
    if (optimalBots.includes(r.bot)) expect(r.moveCount, `${r.bot} optimal`).toBe(r.bound.optimal);
    expect(r.moveCount).toBeGreaterThanOrEqual(r.bound.lowerBound);
  }
}

describe('built-in bots e2e - sliding', () => {
  it('the four 3x3 solvers of the seeds and the SDK example are optimal on random 8-puzzles', async () => {
    const bots = ['dijkstra', 'backtracking', 'ida-star', 'reference-bfs', 'constructive'];
    const rows = await play(bots, scrambles({ kind: 'sliding', rows: 3, cols: 3 }, 4, 'e2e-3x3'));
    expect(rows).toHaveLength(20);
    expectSolved(rows, ['dijkstra', 'backtracking', 'ida-star', 'reference-bfs']);
  });

  it('dijkstra solves 2x5 with the same length as optimal IDA* and declines 4x4 as unsupported', async () => {
    // 2x5 has 10 cells: beyond the referee's BFS tables, so the other optimal solver is the check.
    const rows = await play(['dijkstra', 'ida-star'], [...scrambles({ kind: 'sliding', rows: 2, cols: 5 }, 2, 'e2e-2x5'), ...scrambles({ kind: 'sliding', size: 4 }, 1, 'e2e-4')]);
    const of = (bot: string) => rows.filter((r) => r.bot === bot);
    expect(of('dijkstra').map((r) => r.verdict)).toEqual(['solved', 'solved', 'unsupported']);
    expect(of('dijkstra').slice(0, 2).map((r) => r.moveCount)).toEqual(of('ida-star').slice(0, 2).map((r) => r.moveCount));
  });

  it('ida-star and constructive solve random 15-puzzles; constructive solves 100x100', async () => {
    const rows = await play(['ida-star', 'constructive'], scrambles({ kind: 'sliding', size: 4 }, 2, 'e2e-4x4'));
    expectSolved(rows, []);
    const big = await play(['constructive'], scrambles({ kind: 'sliding', size: 100 }, 1, 'e2e-100'));
    expectSolved(big, []);
    expect(big[0].moveCount).toBeLessThanOrEqual(5 * 100 ** 3 - (17 * 100 ** 2) / 2 + (31 * 100) / 2 - 71);
  });
});

describe('built-in bots e2e - sliding, bigger boards', () => {
  it('pdb-beam and ida-star answer 5x5 within a short limit, and ida-star solves 8x8 line by line', async () => {
    // --no-build: the bot must not start a minutes-long 5x5 table build inside a test (it searches on
    // Manhattan + linear conflict when the cache has no 5x5 tables).
    const rows = await play(['pdb-beam --no-build', 'ida-star'], scrambles({ kind: 'sliding', size: 5 }, 2, 'e2e-5x5'), 3000);
    expectSolved(rows, []);
    for (const r of rows) expect(r.claimedOptimal, r.bot).toBe(false);
    const big = await play(['ida-star'], scrambles({ kind: 'sliding', size: 8 }, 1, 'e2e-8x8'), 30_000);
    expectSolved(big, []);
  });
});

describe('built-in bots e2e - hanoi, swaps, warehouse', () => {
  it('hanoi: both bots move a 24-disc tower (16,777,215 moves) optimally; recursive solves any to any', async () => {
    const tower: PuzzleState = { kind: 'hanoi', pegs: 3, start: 'A'.repeat(24), goal: 'C'.repeat(24) };
    const rows = await play(['hanoi-recursive', 'hanoi-iterative'], [tower]);
    expectSolved(rows, ['hanoi-recursive', 'hanoi-iterative']);
    expect(rows[0].moveCount).toBe(2 ** 24 - 1);
    const any = await play(['hanoi-recursive', 'hanoi-iterative'], scrambles({ kind: 'hanoi', discs: 24, randomGoal: true }, 2, 'e2e-hanoi'));
    expectSolved(any.filter((r) => r.bot === 'hanoi-recursive'), ['hanoi-recursive']);
    for (const r of any.filter((x) => x.bot === 'hanoi-iterative')) expect(r.verdict).toBe('unsupported');
  });

  it('swaps: greedy solves 1000x1000 with exactly n - cycles swaps; adjacent solves 10x10 by inversions', async () => {
    const big = await play(['swaps-greedy'], scrambles({ kind: 'swaps', size: 1000 }, 1, 'e2e-swaps-big'));
    expectSolved(big, ['swaps-greedy']);
    const small = await play(['swaps-greedy', 'swaps-adjacent'], scrambles({ kind: 'swaps', size: 10 }, 3, 'e2e-swaps'));
    expectSolved(small, ['swaps-greedy']);
  });

  it('warehouse: corridors solves n = 100 within the thesis bound; both bots solve n = 16', async () => {
    const big = await play(['warehouse-corridors'], scrambles({ kind: 'warehouse', size: 100 }, 1, 'e2e-wh-100'));
    expectSolved(big, []);
    expect(big[0].moveCount).toBeLessThanOrEqual(2 * 100 ** 3 - 6 * 100 ** 2 + 4 * 100 * 10);
    const small = await play(['warehouse-corridors', 'warehouse-simple'], scrambles({ kind: 'warehouse', size: 16 }, 2, 'e2e-wh-16'));
    expectSolved(small, []);
  });
});
