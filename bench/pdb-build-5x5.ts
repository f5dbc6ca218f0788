/**
 * Opt-in (`npm run bench -- --only pdb-build-5x5`, several minutes, ~1.6 GB while it runs): the 5×5
 * 6-6-6-6 set built from scratch, its two tables on two threads. See pdb-build.ts.
 */
import { PARTITION_5X5 } from '../src/solvers/sliding/pdb-set.ts';
import { timeSetBuild } from './pdb-build.ts';
import type { BenchSuite } from './types.ts';

export const optIn = true;

export const bench: BenchSuite = async () => [await timeSetBuild(5, 5, PARTITION_5X5)];
