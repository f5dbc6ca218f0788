/**
 * The referee end to end on an instant bot: 2×2 scrambles through the real path (a spawned bot process under
 * the default limits, its CPU time metered per solve, a real WebSocket, every result committed to a SQLite
 * file before the next is reported). Like the floor (_floor.ts), the rate counts after a warm-up of 200
 * results (the first of them is where the bot's start-up ends), to the last.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRng } from '../src/core/rng.ts';
import type { PuzzleState } from '../src/core/types.ts';
import { puzzles } from '../src/puzzles/index.ts';
import { runNewMatch } from '../src/referee/run-match.ts';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.ts';
import { tsxLoaderPath } from '../src/transport/process/builtin-bots.ts';
import { createProcessLauncher } from '../src/transport/process/process-launcher.ts';
import { systemClock } from '../src/transport/system-clock.ts';
import { startArenaServer } from '../src/transport/ws-server.ts';
import { pinnedReferee, type BenchPins } from './_floor.ts';

const ROOT = resolve(import.meta.dirname, '..');
/** Results before the timed part, as the floor's warm-up trips. */
const WARM_UP_RESULTS = 200;

/** What one end-to-end run measured. */
export interface EndToEnd {
  /** Scrambles per second, from the end of the warm-up to the last result. */
  readonly rate: number;
  /** Results recorded in all, warm-up included, and how many of them were solved. */
  readonly results: number;
  readonly solved: number;
  /** Results that carry the bot's CPU time. */
  readonly metered: number;
  /** The referee's CPU time per scramble (all its threads), over the same results as the rate, µs. */
  readonly refereeCpuUs: number;
  /** The bot's CPU time per solve as metered, mean, µs. */
  readonly botCpuUs: number;
}

/**
 * Plays `count` 2×2 scrambles (after the warm-up's) with the `instant` fixture bot (or another bot program,
 * for experiments); with `pins`, the referee and the bot on the cores a default match deals them.
 */
export async function endToEnd(count: number, bot: readonly string[] = ['--import', 'TSX', join(ROOT, 'test/fixtures/bots/instant.ts')], pins?: BenchPins): Promise<EndToEnd> {
  return pinnedReferee(pins, () => endToEndLoop(count, bot, pins));
}

async function endToEndLoop(count: number, bot: readonly string[], pins: BenchPins | undefined): Promise<EndToEnd> {
  const dir = mkdtempSync(join(tmpdir(), 'arena-bench-'));
  const store = openSqliteStore(join(dir, 'bench.db'));
  const server = await startArenaServer({ authenticate: () => undefined });
  try {
    // The same warm-up as the floor's, so that both rows measure the same phase of a run: `count` timed
    // results after `warm` untimed ones.
    const warm = Math.min(WARM_UP_RESULTS, count);
    const rng = createRng('bench-referee');
    const states: PuzzleState[] = Array.from({ length: warm + count }, () => puzzles.sliding.scramble({ kind: 'sliding', rows: 2, cols: 2 }, rng));
    const makeLauncher = (name: string) =>
      createProcessLauncher({
        name,
        command: process.execPath,
        args: bot.map((a) => (a === 'TSX' ? pathToFileURL(tsxLoaderPath(ROOT)!).href : a)),
        server,
        startTimeoutMs: 60_000,
        ...(pins ? { affinity: { cpus: pins.bot, taskset: pins.taskset } } : {}),
      });
    let first = 0;
    let last = 0;
    let cpu0 = process.cpuUsage();
    let cpu = cpu0;
    const run = await runNewMatch({ bots: ['instant'], count: warm + count, seed: 'bench', timeLimitMs: 10_000, maxMoves: 100, concurrency: 1 }, states, {
      store,
      clock: systemClock,
      makeLauncher,
      onResult: (e) => {
        if (e.done === warm) {
          first = performance.now();
          cpu0 = process.cpuUsage();
        }
        last = performance.now();
        if (e.done === warm + count) cpu = process.cpuUsage(cpu0);
      },
    });
    const rows = await store.listSummaries(run.match.id);
    return {
      rate: count / ((last - first) / 1000),
      results: rows.length,
      solved: rows.filter((r) => r.verdict === 'solved').length,
      metered: rows.filter((r) => r.cpuMs !== undefined).length,
      refereeCpuUs: (cpu.user + cpu.system) / count,
      botCpuUs: (rows.reduce((a, r) => a + (r.cpuMs ?? 0), 0) / rows.length) * 1000,
    };
  } finally {
    await server.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
