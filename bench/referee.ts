/**
 * Referee throughput: end-to-end scrambles per second with an instant bot on 2×2 boards (real WebSocket,
 * spawned bot process, its CPU time metered, every result committed to a SQLite file) beside the floor of
 * that design (a bare round trip plus one committed row) in the same run, the cost of validating and recording
 * one 1,000,000-move solution, and the referee's peak memory for a 50,000,000-move answer of each kind.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRng } from '../src/core/rng.ts';
import type { PuzzleState, SlidingState } from '../src/core/types.ts';
import type { BotLink, LinkEvent } from '../src/protocol/link.ts';
import { puzzles } from '../src/puzzles/index.ts';
import { walkTiles } from '../src/puzzles/sliding/scramble.ts';
import { runNewMatch } from '../src/referee/run-match.ts';
import { solveOne } from '../src/referee/solve-one.ts';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.ts';
import { builtinBotCommand } from '../src/transport/process/builtin-bots.ts';
import { createProcessLauncher } from '../src/transport/process/process-launcher.ts';
import { systemClock } from '../src/transport/system-clock.ts';
import { startArenaServer } from '../src/transport/ws-server.ts';
import { againstFloor, defaultPins } from './_against-floor.ts';
import { peakRssRows } from './_peak-rss.ts';
import type { BenchRow, BenchSuite } from './types.ts';

const ROOT = resolve(import.meta.dirname, '..');

/** An in-process link that answers one solve with a prepared solution in 1 MB chunks. */
function scriptedLink(solution: string): BotLink {
  const listeners = new Set<(e: LinkEvent) => void>();
  return {
    hello: { type: 'hello', protocol: 1, name: 'scripted', version: '1', capabilities: [{ kind: 'sliding' }] },
    closed: false,
    send(m) {
      if (m.type !== 'solve') return;
      const chunk = 1 << 20;
      for (let i = 0; i < solution.length; i += chunk) {
        const final = i + chunk >= solution.length;
        const message = { type: 'moves' as const, id: m.id, moves: solution.slice(i, i + chunk), final };
        queueMicrotask(() => listeners.forEach((l) => l({ type: 'message', message })));
      }
    },
    onEvent(l) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    close: async () => undefined,
  };
}

async function millionMoves(runs: number): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'arena-bench-'));
  const store = openSqliteStore(join(dir, 'bench.db'));
  try {
    // A 500,000-move walk from the goal and its exact inverse: a valid 1,000,000-move round trip would be
    // solved from the goal itself, so scramble by the walk and answer with the inverse walk plus 500,000
    // moves of blank shuttling (L R pairs) that keep it legal and end solved.
    const rows = 100;
    const cols = 100;
    const { tiles, moves } = walkTiles(rows, cols, 500_000, createRng('bench-1e6'));
    const inverse = [...moves].reverse().map((c) => ({ U: 'D', D: 'U', L: 'R', R: 'L' })[c]!).join('');
    const solution = 'LR'.repeat(250_000) + inverse;
    const state: SlidingState = { kind: "sliding", rows, cols, tiles: Array.from(tiles) };
    const scrambles = Array.from({ length: runs }, (_, index) => ({ index, state, puzzleClass: 'sliding 100x100', bound: { lowerBound: 0 } }));
    const match = await store.createMatch({ config: {}, seed: 'bench', generatorVersion: 'bench', bots: ['scripted'], scrambles });
    const stored = await store.listScrambles(match.id);
    const times: number[] = [];
    for (let r = 0; r < runs; r++) {
      const scramble = stored[r];
      const t0 = performance.now();
      const out = await solveOne(scriptedLink(solution), { state, timeLimitMs: 60_000, maxMoves: 2_000_000 }, systemClock);
      if (!out || out.verdict !== 'solved') throw new Error(`1e6-move bench: expected solved, got ${out?.verdict} ${out?.error ?? ''}`);
      const { linkBroken: _l, ...rest } = out;
      await store.recordResult({ scrambleId: scramble.id, bot: 'scripted', ...rest });
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    return [{ name: 'validate + record a 1,000,000-move solution (100x100)', value: times[times.length >> 1], unit: 'ms', note: `median of ${runs}` }];
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Built-in bots through the whole path: the referee sends `solve`, the bot generates and streams its
 * chunks over the WebSocket, the referee validates each as it arrives. Time is the referee's wall clock.
 */
async function botsEndToEnd(quick: boolean): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'arena-bench-'));
  const store = openSqliteStore(join(dir, 'bench.db'));
  const server = await startArenaServer({ authenticate: () => undefined });
  const rng = createRng('bench-bots');
  const cases: Array<[string, string, PuzzleState]> = [
    ['hanoi-recursive', 'hanoi 20-disc tower', { kind: 'hanoi', pegs: 3, start: 'A'.repeat(20), goal: 'C'.repeat(20) }],
    ['hanoi-recursive', 'hanoi 24-disc tower', { kind: 'hanoi', pegs: 3, start: 'A'.repeat(24), goal: 'C'.repeat(24) }],
    ['hanoi-iterative', 'hanoi 24-disc tower', { kind: 'hanoi', pegs: 3, start: 'A'.repeat(24), goal: 'C'.repeat(24) }],
    ['swaps-greedy', 'swaps 1000x1000', puzzles.swaps.scramble({ kind: 'swaps', rows: 1000, cols: 1000 }, rng)],
    ['constructive', 'sliding 100x100', puzzles.sliding.scramble({ kind: 'sliding', rows: 100, cols: 100 }, rng)],
    ['warehouse-corridors', 'warehouse n=100', puzzles.warehouse.scramble({ kind: 'warehouse', size: 100 }, rng)],
  ];
  const rows: BenchRow[] = [];
  try {
    for (const [bot, what, state] of quick ? cases.slice(0, 2) : cases) {
      const run = await runNewMatch({ bots: [bot], count: 1, seed: 'bench', timeLimitMs: 120_000, maxMoves: 50_000_000, concurrency: 1 }, [state], {
        store,
        clock: systemClock,
        makeLauncher: (name) => createProcessLauncher({ name, ...builtinBotCommand(name, ROOT)!, server, startTimeoutMs: 60_000 }),
      });
      const [r] = await store.listResults(run.match.id);
      rows.push({
        name: `${bot} ${what}: solve + stream + validate`,
        value: r.moveCount / (r.wallMs / 1000) / 1e6,
        unit: 'Mmoves/s',
        note: `${r.verdict}, ${r.moveCount} moves in ${r.wallMs.toFixed(0)} ms (referee wall clock, bot compute included)`,
      });
    }
  } finally {
    await server.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

export const bench: BenchSuite = async ({ quick }) => {
  const pins = defaultPins();
  return [
    ...(await againstFloor(quick ? 1000 : 3000, quick ? 3 : 5)),
    // As a user's match now runs by default on a machine with more cores than players: referee and bot apart.
    ...(pins ? await againstFloor(quick ? 1000 : 3000, quick ? 3 : 5, pins) : []),
    ...(await millionMoves(quick ? 3 : 7)),
    ...(await botsEndToEnd(quick)),
    ...(await peakRssRows(quick ? 5_000_000 : 50_000_000)),
  ];
};
