/**
 * The optima a report relies on, checked against the database's cache and, with `--deep`, proved again.
 * Every exact optimum the referee finds beyond the puzzle's cheap bound goes through the cache (the oracle
 * settles a scramble and adds its optimum, or takes it from there), so a scramble whose recorded optimum the
 * cache holds differently, or not at all, had its bound or the cache edited: a row planted for the referee
 * to take, then deleted, leaves a sealed bound the cache does not explain. `--deep` does not trust the cache
 * either: it re-runs the exact oracle on every cached optimum and every scramble's optimum.
 */
import type { Bound, PuzzleState } from '../../core/types.ts';
import { parseState, puzzleOf } from '../../puzzles/index.ts';
import { stateKey } from '../../referee/refine-bounds.ts';
import type { OptimumOracle } from '../../solvers/oracle.ts';
import type { ScrambleRecord, Store } from '../../store/types.ts';

/** An optimum the oracle found (not one the puzzle's cheap bound gives): what a report takes on trust. */
export function provedOptimum(s: ScrambleRecord): number | undefined {
  if (s.bound.optimal === undefined) return undefined;
  return puzzleOf(s.state).bound(s.state).optimal === undefined ? s.bound.optimal : undefined;
}

/**
 * The scrambles of one page whose proved optimum the cache contradicts, as (index, line). A missing row is a
 * problem only where `strict` (a match sealed since the database got its key: its optima all went through
 * the cache); elsewhere it may be older than the cache (schema v8) and goes to `notes`.
 */
export async function cachedOptimaProblems(
  store: Pick<Store, 'knownOptima'>,
  page: readonly ScrambleRecord[],
  strict: boolean,
  notes: string[],
): Promise<{ index: number; what: string }[]> {
  const proved = page.flatMap((s) => {
    const optimal = provedOptimum(s);
    return optimal === undefined ? [] : [{ s, optimal, key: stateKey(s.state) }];
  });
  if (proved.length === 0) return [];
  const cache = await store.knownOptima(proved.map((p) => p.key));
  const out: { index: number; what: string }[] = [];
  for (const p of proved) {
    const cached = cache.get(p.key);
    if (cached === undefined) {
      const what = `its recorded optimum ${p.optimal} is not in the database's optima cache, where every optimum the referee proves goes: the cached row was removed, or the bound edited`;
      if (strict) out.push({ index: p.s.index, what });
      else notes.push(`scramble ${p.s.index + 1}: its recorded optimum ${p.optimal} is not in the optima cache (it may predate the cache; arena audit --deep proves it again)`);
    } else if (cached !== p.optimal) {
      out.push({ index: p.s.index, what: `its recorded optimum ${p.optimal} differs from the database's cached optimum ${cached} of the same state` });
    }
  }
  return out;
}

/** One optimum to prove again: the state, the length recorded, and where it was recorded (for the problem line). */
export interface ClaimedOptimum {
  readonly state: PuzzleState;
  readonly optimal: number;
  readonly where: string;
}

/** A cached optimum as a claim, or a line saying why its key is no state. */
export function cachedClaim(key: string, optimal: number): ClaimedOptimum | string {
  let json: unknown;
  try {
    json = JSON.parse(key);
  } catch {
    return `a cached optimum's key is not a state: ${key.slice(0, 80)}`;
  }
  const parsed = parseState(json);
  return parsed.ok ? { state: parsed.value, optimal, where: `the cached optimum of ${key}` } : `a cached optimum's key is not a valid state: ${parsed.reason}`;
}

/**
 * Proves each claimed optimum again with the exact oracle (one at a time, each within the oracle's budget):
 * a different optimum is a problem; one the oracle cannot settle within its budget is a note.
 */
export async function reprove(oracle: OptimumOracle, claims: readonly ClaimedOptimum[], notes: string[]): Promise<string[]> {
  const problems: string[] = [];
  for (const c of claims) {
    const cheap: Bound = puzzleOf(c.state).bound(c.state);
    const got = cheap.optimal !== undefined ? { bound: cheap } : await oracle.improve(c.state, cheap);
    const exact = got.bound.optimal;
    if (exact === undefined) {
      notes.push(`${c.where}: ${c.optimal} not proved again (${'note' in got && got.note ? got.note : 'no exact optimum'}); at least ${got.bound.lowerBound}`);
      if (c.optimal < got.bound.lowerBound) problems.push(`${c.where} is ${c.optimal}, below the ${got.bound.lowerBound} the oracle proved: it is wrong`);
    } else if (exact !== c.optimal) {
      problems.push(`${c.where} is ${c.optimal}, but the exact oracle proves ${exact}`);
    }
  }
  return problems;
}
