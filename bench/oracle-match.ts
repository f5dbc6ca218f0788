/**
 * The exact oracle inside real matches (the ida-star bot over a real WebSocket, SQLite files):
 * - interference: a bot's wall time on each of the first of Korf's 100 with the oracle busy (a backlog of
 *   4×4 optima to find, plus the match's own) against its time on the same scramble just before or after
 *   with the oracle paused (see {@link interleaved}). The oracle is held while each solve is timed, so the
 *   paired ratio should be 1; the same oracle without the hold (as it ran before) is shown beside it for
 *   contrast. Under --affinity's layout (the bot pinned, the oracle's thread on the core kept back) holds
 *   do not pause the oracle: it searches while the bot is timed.
 * - the cached-oracle rerun: a match whose exact optima the oracle must find, then the same seed again in
 *   the same database, where every optimum comes from the store's cache.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRng } from '../src/core/rng.ts';
import type { Bound, PuzzleState } from '../src/core/types.ts';
import { sliding } from '../src/puzzles/sliding/index.ts';
import type { BoundEvent } from '../src/referee/refine-bounds.ts';
import { botCores, dealCores } from '../src/app/launch/cores.ts';
import { runNewMatch } from '../src/referee/run-match.ts';
import type { OptimumOracle } from '../src/solvers/oracle.ts';
import { SlidingOracle } from '../src/solvers/sliding/oracle.ts';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.ts';
import type { Store } from '../src/store/types.ts';
import { builtinBotCommand } from '../src/transport/process/builtin-bots.ts';
import { affinitySupport, formatCpuList, pinTask } from '../src/transport/process/cpu-affinity.ts';
import { createProcessLauncher } from '../src/transport/process/process-launcher.ts';
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

/**
 * The oracle during a match over scrambles played twice in a row (pair p is scrambles 2p and 2p + 1): one
 * copy of each pair is timed with the oracle working as `busy` says, the other with it paused from the end
 * of the solve before to the end of its own, as if it were idle. Which copy is busy turns from pair to pair
 * and, through `flip`, from round to round: a scramble's second solve is faster (the caches hold what its
 * first one read), and with a fixed order that alone read as 6-7% of interference. Paired
 * scramble by scramble and milliseconds apart, the two see the same machine, bot process and JIT state.
 * `busy`: 'hold' lets the oracle decide (paused while timed, unless pinned to cores of its own); 'free'
 * never pauses it (as it ran before it could be held).
 */
function interleaved(o: SlidingOracle, busy: 'hold' | 'free', flip: number, total: number): OptimumOracle & { solves: () => number } {
  let k = 0;
  const idleCopy = (i: number) => (i & 1) !== (busyCopy(i >> 1, flip) & 1);
  // The pause that keeps the oracle idle through the next solve, taken as the solve before it ends.
  let idlePause: (() => void) | undefined = idleCopy(0) ? o.pause() : undefined;
  return {
    covers: (s, b) => o.covers(s, b),
    improve: (s, b, known) => o.improve(s, b, known),
    close: () => o.close(),
    solves: () => k,
    hold: () => {
      const i = k++;
      const own = idleCopy(i) ? idlePause ?? o.pause() : busy === 'hold' ? o.hold() : () => {};
      idlePause = undefined;
      return () => {
        // (After the last solve the match waits for the oracle: nothing may stay paused then.)
        if (i + 1 < total && idleCopy(i + 1)) idlePause = o.pause();
        own();
      };
    },
  };
}

/** The copy (0 or 1) of pair `p` that is timed with the oracle busy, in a round flipped by `flip`. */
const busyCopy = (p: number, flip: number): number => (p + flip) & 1;

/** Bot pinning for a run: the bot's cores and taskset (cores.ts's plan for one player, a core kept back). */
type Pin = { readonly cpus: readonly number[]; readonly taskset: string };

/** Plays `states` with ida-star into `store`; returns each scramble's wall time (the referee's clock, ms) in index order. */
async function play(store: Store, server: ArenaServer, states: readonly PuzzleState[], oracle?: OptimumOracle, onBound?: (e: BoundEvent) => void, pin?: Pin): Promise<number[]> {
  const run = await runNewMatch({ bots: ['ida-star'], count: states.length, seed: 'bench', timeLimitMs: 120_000, maxMoves: 1000, concurrency: 1 }, states, {
    store,
    clock: systemClock,
    makeLauncher: (name) => createProcessLauncher({ name, ...builtinBotCommand(name, ROOT)!, server, startTimeoutMs: 120_000, ...(pin ? { affinity: pin } : {}) }),
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


async function interference(count: number, rounds: number): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'arena-bench-oracle-'));
  const server = await startArenaServer({ authenticate: () => undefined });
  // The first of Korf's 100, each played twice in a row: ida-star takes 10-200 ms on each (a uniform
  // 15-puzzle takes it about 6 ms, where the noise of a few hundred microseconds alone moved the ratio by
  // 5%), time in which a competing thread would show.
  const korf = (JSON.parse(readFileSync(join(ROOT, 'test/fixtures/sliding/korf-100-15-puzzle.json'), 'utf8')) as { instances: Array<{ tiles: number[] }> }).instances;
  const states: PuzzleState[] = korf.slice(0, count).flatMap((k) => {
    const s: PuzzleState = { kind: 'sliding', rows: 4, cols: 4, tiles: k.tiles };
    return [s, s];
  });
  const rng = createRng('bench oracle interference');
  const backlog = Array.from({ length: 200 }, () => sliding.scramble({ kind: 'sliding', rows: 4, cols: 4 }, rng));
  // The default deal for one player: the bot on its core, the oracle on the referee's.
  const support = affinitySupport();
  const deal = support.ok ? dealCores({ cpus: support.cpus, players: 1, bots: { 'ida-star': 1 } }) : undefined;
  const spare = deal?.pinned ? deal.referee : [];
  const pin: Pin | undefined = support.ok && deal?.pinned ? { cpus: botCores(deal, 0, 'ida-star'), taskset: support.taskset } : undefined;
  const modes = ['held', 'free', ...(pin ? (['pinned'] as const) : [])] as const;
  // Per mode, per round, each scramble's log(busy / idle) from its pair.
  const logs = new Map<string, number[][]>(modes.map((m) => [m, []]));
  const idleTimes: number[] = [];
  try {
    for (let r = 0; r < rounds; r++) {
      for (let k = 0; k < modes.length; k++) {
        const mode = modes[(k + r) % modes.length]!;
        const store = openSqliteStore(join(dir, `${mode}-${r}.db`));
        const oracle = new SlidingOracle();
        const pinned = mode === 'pinned' ? pin : undefined;
        if (pinned) oracle.runOn(formatCpuList(spare), (tid) => pinTask(tid, spare, pinned.taskset));
        const o = interleaved(oracle, mode === 'free' ? 'free' : 'hold', r, states.length);
        // The backlog keeps the oracle's thread searching throughout the match (uniform 15-puzzles take it
        // a tenth of a second to seconds each); the match's own scrambles queue behind it.
        for (const s of backlog) void o.improve(s, sliding.bound(s) as Bound);
        try {
          const wall = await play(store, server, states, o, undefined, pinned);
          if (o.solves() !== states.length) throw new Error(`oracle-match bench: ${o.solves()} timed solves for ${states.length} scrambles`);
          if (pinned && !oracle.pinned) throw new Error('oracle-match bench: the oracle thread could not be pinned');
          logs.get(mode)!.push(
            Array.from({ length: count }, (_, p) => {
              const b = busyCopy(p, r);
              if (mode === 'held') idleTimes.push(wall[2 * p + 1 - b]!);
              return Math.log(wall[2 * p + b]! / wall[2 * p + 1 - b]!);
            }),
          );
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
  // Each scramble's mean log ratio over the rounds (as many with the busy copy first as second), then the
  // geometric mean over the scrambles.
  const ratioOf = (mode: string) => {
    const rs = logs.get(mode)!;
    const perScr = Array.from({ length: count }, (_, p) => rs.reduce((a, x) => a + x[p]!, 0) / rs.length);
    return Math.exp(perScr.reduce((a, x) => a + x, 0) / count);
  };
  const idleMs = median(idleTimes);
  const load = `load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`;
  const note = `the first ${count} of Korf's 100, each timed twice in a row (oracle busy, oracle paused; which first turns by scramble and round) × ${rounds} rounds, ida-star; median wall per scramble idle ${idleMs.toFixed(1)} ms; ${load}`;
  const rows: BenchRow[] = [
    { name: 'oracle interference: per-scramble wall time, oracle busy (held while timed) / idle', value: ratioOf('held'), unit: 'ratio', target: '≤ 1.05', note },
    { name: 'oracle interference without the hold (as before), for contrast', value: ratioOf('free'), unit: 'ratio', note: 'the same oracle and backlog, searching while the bot is timed on any core' },
  ];
  if (pin) {
    rows.push({
      name: 'oracle interference under --affinity: bot pinned, oracle searching on the spare core / idle',
      value: ratioOf('pinned'),
      unit: 'ratio',
      target: '≤ 1.05',
      note: `bot on cpu ${formatCpuList(pin.cpus)}, the oracle's thread on ${formatCpuList(spare)}, not held while the bot is timed`,
    });
  } else {
    rows.push({ name: 'oracle interference under --affinity', value: NaN, unit: '', note: `skipped: ${support.ok ? 'one core only' : support.reason}` });
  }
  return rows;
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

export const bench: BenchSuite = async ({ quick }) => [...(await interference(quick ? 8 : 20, quick ? 2 : 4)), ...(await cachedRerun(quick ? 10 : 30))];
