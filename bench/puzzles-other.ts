import type { BenchRow, BenchSuite } from './types.ts';
import { createRng } from '../src/core/rng.ts';
import type { HanoiState, PuzzleState, WireMoves } from '../src/core/types.ts';
import { hanoi } from '../src/puzzles/hanoi/index.ts';
import type { Puzzle } from '../src/puzzles/puzzle.ts';
import { swaps } from '../src/puzzles/swaps/index.ts';
import { swapsGreedy } from '../src/puzzles/swaps/cycles.ts';
import { warehouse } from '../src/puzzles/warehouse/index.ts';
import { warehouseLayout } from '../src/puzzles/warehouse/layout.ts';
import { warehouseInverseText, warehouseWalk } from '../src/puzzles/warehouse/walk.ts';

interface Timing {
  readonly median: number;
  readonly max: number;
  /** Median process CPU time (ms): on a shared, loaded machine this is the steadier figure. */
  readonly cpu: number;
}

/** Median and max wall time and median CPU time (ms) of `runs` calls of `fn` after `warmup` untimed calls. */
function timeMs(fn: () => void, warmup: number, runs: number): Timing {
  for (let i = 0; i < warmup; i++) fn();
  const times: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpus.push((c.user + c.system) / 1000);
  }
  times.sort((a, b) => a - b);
  cpus.sort((a, b) => a - b);
  return { median: times[times.length >> 1], max: times[times.length - 1], cpu: cpus[cpus.length >> 1] };
}

/** The optimal 2^n − 1 tower solution A → C as wire chunks of `chunkChars` characters (cut mid-pair on purpose). */
function hanoiTowerChunks(n: number, chunkChars: number): string[] {
  const codes = new Uint8Array(2 * (2 ** n - 1));
  let at = 0;
  const tower = (k: number, from: number, to: number): void => {
    if (k === 0) return;
    const via = 3 - from - to;
    tower(k - 1, from, via);
    codes[at++] = 65 + from;
    codes[at++] = 65 + to;
    tower(k - 1, via, to);
  };
  tower(n, 0, 2);
  const chunks: string[] = [];
  for (let i = 0; i < codes.length; i += chunkChars) {
    chunks.push(Buffer.from(codes.buffer, i, Math.min(chunkChars, codes.length - i)).toString('latin1'));
  }
  return chunks;
}

/** Times replaying `chunks` from `start` with a fresh replayer; reports whether every run ended solved. */
function validate(puzzle: Puzzle, start: PuzzleState, chunks: readonly WireMoves[], quick: boolean) {
  let solved = true;
  const t = timeMs(
    () => {
      const r = puzzle.replayer(start);
      for (const c of chunks) r.push(c);
      if (r.finish().verdict !== 'solved') solved = false;
    },
    1,
    quick ? 3 : 7,
  );
  return { ...t, solved };
}

function rowsFor(label: string, moves: number, t: Timing & { solved: boolean }): BenchRow[] {
  const flag = t.solved ? '' : ' (UNEXPECTED: not solved)';
  return [
    {
      name: `${label} throughput`,
      value: round(moves / t.median / 1000),
      unit: 'Mmoves/s',
      note: `${moves} moves, median wall; by CPU time ${round(moves / t.cpu / 1000)}${flag}`,
    },
    { name: `${label} time`, value: round(t.median), unit: 'ms', note: `median wall, max ${round(t.max)} ms, CPU ${round(t.cpu)} ms` },
  ];
}

/**
 * Replayer throughput of the other three kinds: Hanoi on the 16,777,215-move optimal solution of 24 discs
 * (1 MiB chunks, so pairs straddle chunk boundaries), swaps on the greedy solution of a 1000×1000 scramble,
 * warehouse n = 100 on the reversal of a 1,000,000-move random walk.
 */
export const bench: BenchSuite = async ({ quick }) => {
  const rows: BenchRow[] = [];

  const discs = 24;
  const hanoiStart: HanoiState = { kind: 'hanoi', pegs: 3, start: 'A'.repeat(discs), goal: 'C'.repeat(discs) };
  const hanoiChunks = hanoiTowerChunks(discs, (1 << 20) + 1);
  rows.push(...rowsFor('hanoi validate 24 discs, 2^24-1 moves', 2 ** discs - 1, validate(hanoi as Puzzle, hanoiStart, hanoiChunks, quick)));

  const swapsStart = swaps.scramble({ kind: 'swaps', rows: 1000, cols: 1000 }, createRng('bench-swaps'));
  const swapsMoves = swapsGreedy(swapsStart.tiles);
  rows.push(...rowsFor('swaps validate 1000x1000 greedy', swapsMoves.length, validate(swaps as Puzzle, swapsStart, [swapsMoves], quick)));

  const walkMoves = 1_000_000;
  const w = warehouseWalk(warehouseLayout(100), walkMoves, createRng('bench-warehouse'));
  const warehouseStart = { kind: 'warehouse' as const, size: 100, cells: Array.from(w.cells) };
  const text = warehouseInverseText(w.tiles, w.dirs);
  rows.push(...rowsFor('warehouse validate n=100, 1e6-move walk', walkMoves, validate(warehouse as Puzzle, warehouseStart, [text], quick)));

  return rows;
};

function round(v: number): number {
  return Math.round(v * 100) / 100;
}
