/**
 * Opt-in (`npm run bench -- --only pdb-beam-korf`, 8–9 minutes): pdb-beam on all fifty of Korf & Felner's
 * 24-puzzles at 10 s each, moves ÷ the published optimum. See pdb-beam.ts.
 */
import { korfRows, tables5x5 } from './pdb-beam.ts';
import type { BenchSuite } from './types.ts';

export const optIn = true;

export const bench: BenchSuite = async ({ quick }) => {
  const { tables, row } = await tables5x5();
  return [row, ...(await korfRows(tables, quick ? 10 : 50))];
};
