/**
 * pdb-beam on 5×5, in process through the bot's own solve with a 10 s limit (so it searches ~9 s): mean
 * moves ÷ the published optimum on the first 10 of Korf & Felner's fifty 24-puzzles (all fifty:
 * `--only pdb-beam-korf`, 8–9 minutes), and ÷ the pattern-database bound on 10 seeded uniform boards; each
 * run also records its best answer at 1, 2 and 5 s (the anytime curve). The 5×5 tables are loaded (or, the
 * first time, built: minutes) first; their size and load time are a row. The machine is shared: every note
 * carries the load average.
 */
import { loadavg } from 'node:os';
import { createRng } from '../src/core/rng.ts';
import { sliding } from '../src/puzzles/sliding/index.ts';
import { makeBoard } from '../src/solvers/sliding/board.ts';
import { defaultCacheDir } from '../src/solvers/sliding/pdb-cache.ts';
import type { PatternTable } from '../src/solvers/sliding/pdb-heuristic.ts';
import { loadOrBuildPdbSet, PARTITION_5X5, partitionBytes } from '../src/solvers/sliding/pdb-set.ts';
import { PatternValues } from '../src/solvers/sliding/pdb-values.ts';
import { solvePdbBeam } from '../bots/pdb-beam/solve.ts';
import { korfFelner24 } from '../test/helpers/pdb-fixtures.ts';
import type { BenchRow, BenchSuite } from './types.ts';

const LIMIT_MS = 10_000;
const MARKS_S = [1, 2, 5];

/** One board: the final answer's length and the best length known at each mark. */
async function run(tiles: number[], tables: readonly PatternTable[]): Promise<{ moves: number; at: number[] }> {
  const t0 = Date.now();
  const found: [number, number][] = [];
  const s = { kind: 'sliding' as const, rows: 5, cols: 5, tiles };
  const ctx = { deadline: t0 + LIMIT_MS, timeLimitMs: LIMIT_MS, maxMoves: 1e6, signal: new AbortController().signal };
  const a = await solvePdbBeam(s, ctx, () => tables, (len) => found.push([Date.now() - t0, len]));
  if (!('moves' in a) || typeof a.moves !== 'string' || sliding.replay(s, a.moves).verdict !== 'solved') throw new Error('pdb-beam: no valid answer');
  const at = MARKS_S.map((m) => found.filter(([ms]) => ms <= m * 1000).at(-1)?.[1] ?? NaN);
  return { moves: a.moves.length, at };
}

/** Rows for a set of boards against a reference length per board (the optimum or a bound). */
function rows(label: string, refName: string, results: { moves: number; at: number[] }[], refs: number[]): BenchRow[] {
  const total = refs.reduce((a, b) => a + b, 0);
  const ratio = (k: (r: { moves: number; at: number[] }) => number): number => results.reduce((a, r) => a + k(r), 0) / total;
  const curve = MARKS_S.map((m, i) => `${m} s ${ratio((r) => r.at[i]).toFixed(3)}`).join(', ');
  return [
    {
      name: `pdb-beam 5x5 ${label}: moves ÷ ${refName} at 10 s`,
      value: Math.round(ratio((r) => r.moves) * 1000) / 1000,
      unit: 'ratio',
      ...(refName === 'optimum' ? { target: '≤ 1.10 (stretch 1.05)' } : {}),
      note: `${results.length} boards, all solved; mean ${(results.reduce((a, r) => a + r.moves, 0) / results.length).toFixed(1)} moves vs ${(total / results.length).toFixed(1)}; at ${curve}; load ${loadavg()[0].toFixed(1)}`,
    },
  ];
}

/** The tables, and a row saying what loading (or building) them took. */
export async function tables5x5(): Promise<{ tables: PatternTable[]; row: BenchRow }> {
  const t0 = performance.now();
  const tables = await loadOrBuildPdbSet(5, 5, PARTITION_5X5, { dir: defaultCacheDir(), log: (l) => process.stderr.write(`${l}\n`) });
  const row: BenchRow = {
    name: 'pdb-beam 5x5 6-6-6-6 tables load (or build)',
    value: (performance.now() - t0) / 1000,
    unit: 's',
    note: `${(partitionBytes(5, 5, PARTITION_5X5) / 1e6).toFixed(0)} MB: two tables of 127,512,000 bytes, the three edge blocks read from one`,
  };
  return { tables, row };
}

/** The first `count` of Korf & Felner's instances against their optima. */
export async function korfRows(tables: readonly PatternTable[], count: number): Promise<BenchRow[]> {
  const set = korfFelner24().slice(0, count);
  const results = [];
  for (const x of set) results.push(await run(x.tiles, tables));
  return rows(`Korf-Felner ${count === 50 ? 'all fifty' : `first ${count}`}`, 'optimum', results, set.map((x) => x.optimal));
}

export const bench: BenchSuite = async ({ quick }) => {
  const { tables, row } = await tables5x5();
  const out: BenchRow[] = [row];
  out.push(...(await korfRows(tables, quick ? 3 : 10)));
  const pv = new PatternValues(makeBoard(5, 5), tables);
  const rng = createRng('bench pdb-beam 5x5');
  const boards = Array.from({ length: quick ? 3 : 10 }, () => [...sliding.scramble({ kind: 'sliding', size: 5 }, rng).tiles]);
  const results = [];
  for (const b of boards) results.push(await run(b, tables));
  out.push(...rows('uniform boards', 'pattern-database bound', results, boards.map((b) => pv.bound(b))));
  return out;
};
