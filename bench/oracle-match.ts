/**
 * The exact oracle inside real matches (the ida-star bot over a real WebSocket, SQLite files):
 * - interference: a bot's per-scramble wall times with the oracle busy (a backlog of 4×4 optima to find,
 *   plus the match's own) against its times with no oracle, scramble by scramble, in rounds that alternate
 *   so both see the same machine. The oracle is held while each solve is timed, so the paired ratio should
 *   be 1; the same oracle without the hold (as it ran before) is shown beside it for contrast.
 * - the cached-oracle rerun: a match whose exact optima the oracle must find, then the same seed again in
 *   the same database, where every optimum comes from the store's cache.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRng } from '../src/core/rng.ts';
import type { Bound, PuzzleState } from '../src/core/types.ts';
import { sliding } from '../src/puzzles/sliding/index.ts';
import type { BoundEvent } from '../src/referee/refine-bounds.ts';
import { startMatch } from '../src/referee/run-match.ts';
import type { OptimumOracle } from '../src/solvers/oracle.ts';
import { SlidingOracle } from '../src/solvers/sliding/oracle.ts';
import { openSqliteStore } from '../src/store/sqlite-store.ts';
import type { Store } from '../src/store/types.ts';
import { builtinBotCommand } from '../src/transport/builtin-bots.ts';
import { createProcessLauncher } from '../src/transport/process-launcher.ts';
import { systemClock } from '../src/transport/system-clock.ts';
import { startArenaServer, type ArenaServer } from '../src/transport/ws-server.ts';
import type { BenchRow, BenchSuite } from './types.ts';

const ROOT = resolve(import.meta.dirname, '..');

/** Sums the time the oracle spent searching (its own clock). */
function timed(o: OptimumOracle, spent: { ms: number }): OptimumOracle {
  return {
    covers: (s, b) => o.covers(s, b),
    improve: async (s, b, k) => {
      const r = await o.improve(s, b, k);
      spent.ms += r.ms;
      return r;
    },
    hold: () => o.hold!(),
    close: () => o.close(),
  };
}

/** The oracle as it ran before it could be held: the same search, competing with the bot for a core. */
function unheld(o: OptimumOracle): OptimumOracle {
  return { covers: (s, b) => o.covers(s, b), improve: (s, b, k) => o.improve(s, b, k), close: () => o.close() };
}

/** Plays `states` with ida-star into `store`; returns each scramble's wall time (the referee's clock, ms) in index order. */
async function play(store: Store, server: ArenaServer, states: readonly PuzzleState[], oracle?: OptimumOracle, onBound?: (e: BoundEvent) => void): Promise<number[]> {
  const run = await startMatch({ bots: ['ida-star'], count: states.length, seed: 'bench', timeLimitMs: 120_000, maxMoves: 1000, concurrency: 1 }, states, {
    store,
    clock: systemClock,
    makeLauncher: (name) => createProcessLauncher({ name, ...builtinBotCommand(name, ROOT)!, server, startTimeoutMs: 120_000 }),
    ...(oracle ? { oracle } : {}),
    ...(onBound ? { onBound } : {}),
  });
  const rows = await store.listSummaries(run.match.id);
  if (rows.some((r) => r.verdict !== 'solved')) throw new Error(`oracle-match bench: ida-star did not solve every scramble`);
  return rows.sort((a, b) => a.scrambleIndex - b.scrambleIndex).map((r) => r.wallMs);
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** Each scramble's median over the rounds. */
const perScramble = (rounds: number[][]): number[] => rounds[0]!.map((_, i) => median(rounds.map((r) => r[i]!)));
/** The geometric mean of the scramble-by-scramble ratios b/a. */
const pairedRatio = (a: number[], b: number[]): number => Math.exp(a.reduce((s, x, i) => s + Math.log(b[i]! / x), 0) / a.length);

async function interference(count: number, rounds: number): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'arena-bench-oracle-'));
  const server = await startArenaServer({ authenticate: () => undefined });
  // Uniform 15-puzzles: ida-star takes milliseconds to a fraction of a second on each, time in which a
  // competing thread would show.
  const rng = createRng('bench oracle interference');
  const states: PuzzleState[] = Array.from({ length: count }, () => sliding.scramble({ kind: 'sliding', rows: 4, cols: 4 }, rng));
  const backlog = Array.from({ length: 200 }, () => sliding.scramble({ kind: 'sliding', rows: 4, cols: 4 }, rng));
  const idle: number[][] = [];
  const held: number[][] = [];
  const free: number[][] = [];
  try {
    const modes = ['idle', 'held', 'free'] as const;
    for (let r = 0; r < rounds; r++) {
      // The order turns each round, so that neither a slow start nor a change in the machine's load
      // falls on one mode only.
      for (let k = 0; k < modes.length; k++) {
        const mode = modes[(k + r) % modes.length]!;
        const store = openSqliteStore(join(dir, `${mode}-${r}.db`));
        if (mode === 'idle') {
          try {
            idle.push(await play(store, server, states));
          } finally {
            await store.close();
          }
          continue;
        }
        const oracle = new SlidingOracle();
        const busy = mode === 'held' ? oracle : unheld(oracle);
        // The backlog keeps the oracle's thread searching throughout the match (uniform 15-puzzles take it
        // a tenth of a second to seconds each); the match's own scrambles queue behind it.
        for (const s of backlog) void busy.improve(s, sliding.bound(s) as Bound);
        try {
          (mode === 'held' ? held : free).push(await play(store, server, states, busy));
        } finally {
          await oracle.close();
          await store.close();
        }
      }
    }
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const a = perScramble(idle);
  const b = perScramble(held);
  const c = perScramble(free);
  const note = `${count} scrambles × ${rounds} rounds, ida-star; median wall per scramble idle ${median(a).toFixed(1)} ms; load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`;
  return [
    { name: 'oracle interference: per-scramble wall time, oracle busy (held while timed) / idle', value: pairedRatio(a, b), unit: 'ratio', target: '≤ 1.05', note },
    { name: 'oracle interference without the hold (as before), for contrast', value: pairedRatio(a, c), unit: 'ratio', note: 'the same oracle and backlog, searching while the bot is timed' },
  ];
}

async function cachedRerun(count: number): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'arena-bench-cache-'));
  const server = await startArenaServer({ authenticate: () => undefined });
  const store = openSqliteStore(join(dir, 'cache.db'));
  const rng = createRng('bench cached oracle');
  const states: PuzzleState[] = Array.from({ length: count }, () => sliding.scramble({ kind: 'sliding', rows: 4, cols: 4 }, rng));
  const runs: Array<{ s: number; searchS: number; sources: Record<string, number> }> = [];
  try {
    for (let i = 0; i < 2; i++) {
      const oracle = new SlidingOracle();
      const spent = { ms: 0 };
      const sources: Record<string, number> = {};
      const t0 = performance.now();
      try {
        await play(store, server, states, timed(oracle, spent), (e) => void (sources[e.source ?? 'bound'] = (sources[e.source ?? 'bound'] ?? 0) + 1));
      } finally {
        await oracle.close();
      }
      runs.push({ s: (performance.now() - t0) / 1000, searchS: spent.ms / 1000, sources });
    }
  } finally {
    await store.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const said = (x: Record<string, number>) => Object.entries(x).map(([k, v]) => `${v} from ${k}`).join(', ');
  const [first, again] = runs as [(typeof runs)[0], (typeof runs)[0]];
  return [
    { name: `oracle search in a match of ${count} uniform 4x4 (ida-star), first run`, value: first.searchS, unit: 's', note: `whole match ${first.s.toFixed(1)} s; optima: ${said(first.sources)}` },
    {
      name: 'cached-oracle rerun: oracle search, same scrambles again in the same database',
      value: again.searchS,
      unit: 's',
      target: '0',
      note: `whole match ${again.s.toFixed(1)} s; optima: ${said(again.sources)}; load average ${loadavg()[0]!.toFixed(2)}`,
    },
  ];
}

export const bench: BenchSuite = async ({ quick }) => [...(await interference(quick ? 8 : 20, quick ? 3 : 5)), ...(await cachedRerun(quick ? 10 : 30))];
