/**
 * Proving the optima a match owes once it needs no more plays, from what the store holds: what a local
 * match does after its SPRT decided (and what a resume of such a match does), with the refiner a plain
 * match runs beside its plays. A distributed match owes the same optima to its workers' oracle jobs (see
 * queue-decider.ts); both read {@link optimaOwed}.
 */
import type { OptimumOracle } from '../../solvers/oracle.ts';
import type { Store } from '../../store/types.ts';
import { settleOptima, type BoundEvent } from '../refine-bounds.ts';
import { optimaOwed } from './match-fate.ts';

/**
 * Proves the exact optimum of every played scramble of the match still marked pending, each stored (and
 * cached) as it is found. `interrupted` when the oracle was closed first, or `signal` had aborted while
 * something was owed (a closed oracle is not asked): what is left stays pending, and a resume proves it.
 */
export async function settleOwedOptima(
  store: Pick<Store, 'listScrambles' | 'listSummaries' | 'setScrambleBound' | 'knownOptima' | 'addOptima'>,
  oracle: OptimumOracle,
  matchId: number,
  playsPerScramble: number,
  signal: AbortSignal,
  onBound?: (e: BoundEvent) => void,
): Promise<'settled' | 'interrupted'> {
  const results = await store.listSummaries(matchId);
  const owed = optimaOwed(await store.listScrambles(matchId), results);
  if (owed.length === 0) return 'settled';
  if (signal.aborted) return 'interrupted';
  return settleOptima(store, oracle, owed, results, playsPerScramble, onBound);
}
