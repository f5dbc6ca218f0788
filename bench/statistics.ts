/**
 * What the match statistics cost and what the warm-up buys: the SPRT's work per recorded scramble (negligible
 * next to any solve), the exact head-to-head interval for a small and a large match, and dijkstra's first
 * timed 3×3 solve with and without its untimed warm-up (real WebSocket, spawned bot, SQLite file).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRng } from '../src/core/rng.ts';
import type { PuzzleState } from '../src/core/types.ts';
import { puzzles } from '../src/puzzles/index.ts';
import { pairStats, type ScoredResult } from '../src/stats/match-stats.ts';
import { runNewMatch } from '../src/referee/run-match.ts';
import { sprtLlr, type SprtParams } from '../src/stats/sprt.ts';
import { sprtProgress } from '../src/stats/sprt-progress.ts';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.ts';
import { builtinBotCommand } from '../src/transport/process/builtin-bots.ts';
import { createProcessLauncher } from '../src/transport/process/process-launcher.ts';
import { systemClock } from '../src/transport/system-clock.ts';
import { startArenaServer } from '../src/transport/ws-server.ts';
import type { BenchRow, BenchSuite } from './types.ts';

const ROOT = resolve(import.meta.dirname, '..');
const SPRT: SprtParams = { elo0: 0, elo1: 5, alpha: 0.05, beta: 0.05, model: 'normalized' };

/** Mean time of `fn` in ms over enough calls to take about `budgetMs`. */
function timeIt(fn: () => void, budgetMs: number): number {
  fn(); // compile first
  let n = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < budgetMs) {
    fn();
    n++;
  }
  return (performance.now() - t0) / n;
}

function sprtCost(quick: boolean): BenchRow[] {
  const budget = quick ? 100 : 500;
  const wdl = { wins: 412, draws: 1300, losses: 388 };
  const llrUs = timeIt(() => sprtLlr(wdl, SPRT), budget) * 1000;
  // The progress is recomputed from the stored results after each one: a pass over the answered prefix.
  const n = 2000;
  const rng = createRng('bench-sprt');
  const rows: ScoredResult[] = [];
  for (let i = 0; i < n; i++) {
    const a = 40 + rng.int(3);
    rows.push({ scrambleId: i, bot: 'a', verdict: 'solved', moveCount: a, wallMs: 5 } as ScoredResult);
    rows.push({ scrambleId: i, bot: 'b', verdict: 'solved', moveCount: 40 + rng.int(3), wallMs: 5 } as ScoredResult);
  }
  const order = Array.from({ length: n }, (_, i) => i);
  const wide: SprtParams = { ...SPRT, elo0: -1000, elo1: 1000 }; // never decides: the whole prefix is read
  const progressMs = timeIt(() => sprtProgress(wide, 'a', 'b', order, rows), budget);
  return [
    { name: 'SPRT LLR update (normalized, 2,100 games)', value: llrUs, unit: 'µs', note: 'two constrained maximum likelihoods' },
    { name: `SPRT progress over ${n} stored scrambles`, value: progressMs, unit: 'ms', note: `${((progressMs / n) * 1000).toFixed(2)} µs per scramble counted` },
  ];
}

function intervalCost(quick: boolean): BenchRow[] {
  const budget = quick ? 100 : 500;
  return [
    { name: 'exact score interval, 16 games (0-12-4)', value: timeIt(() => pairStats({ wins: 0, draws: 12, losses: 4 }), budget), unit: 'ms' },
    { name: 'exact score interval, 12,800 games', value: timeIt(() => pairStats({ wins: 5000, draws: 3000, losses: 4800 }), budget), unit: 'ms' },
  ];
}

/** dijkstra on `count` 3×3 scrambles: the first timed solve and the median, with or without the warm-up. */
async function dijkstraFirstSolve(count: number, warmUp: boolean): Promise<{ first: number; median: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'arena-bench-warm-'));
  const store = openSqliteStore(join(dir, 'bench.db'));
  const server = await startArenaServer({ authenticate: () => undefined });
  try {
    const rng = createRng('bench-warm-up');
    const states: PuzzleState[] = Array.from({ length: count }, () => puzzles.sliding.scramble({ kind: 'sliding', rows: 3, cols: 3 }, rng));
    const cmd = builtinBotCommand('dijkstra', ROOT)!;
    const times: number[] = [];
    await runNewMatch({ bots: ['dijkstra'], count, seed: 'bench', timeLimitMs: 30_000, maxMoves: 100, concurrency: 1 }, states, {
      store,
      clock: systemClock,
      makeLauncher: (name) =>
        createProcessLauncher({ name, command: cmd.command, args: [...cmd.args, ...(warmUp ? [] : ['--no-warm-up'])], server, startTimeoutMs: 60_000 }),
      onResult: (e) => void times.push(e.wallMs),
    });
    const sorted = [...times].sort((x, y) => x - y);
    return { first: times[0], median: sorted[sorted.length >> 1] };
  } finally {
    await server.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function warmUpEffect(quick: boolean): Promise<BenchRow[]> {
  const count = quick ? 10 : 30;
  const cold = await dijkstraFirstSolve(count, false);
  const warm = await dijkstraFirstSolve(count, true);
  return [
    { name: 'dijkstra 3x3 first timed solve, no warm-up', value: cold.first, unit: 'ms', note: `median ${cold.median.toFixed(2)} ms over ${count}` },
    { name: 'dijkstra 3x3 first timed solve, warm-up', value: warm.first, unit: 'ms', target: '≤ 5× median', note: `median ${warm.median.toFixed(2)} ms over ${count}` },
  ];
}

export const bench: BenchSuite = async ({ quick }) => [...sprtCost(quick), ...intervalCost(quick), ...(await warmUpEffect(quick))];
