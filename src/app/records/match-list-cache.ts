/**
 * The match list as the web serves it, without recomputing what cannot have changed. A listing line comes
 * from the match's results (each pair's standing); a finished match's results no longer change, unless a
 * purge deletes some (counted by a trigger: ladder_state 'results-deleted'), so its line is made once and
 * kept. Each request still reads the list itself (the newest matches, filtered), so new matches and status
 * changes show at once; only running and interrupted matches have their results read again. A store
 * without a change marker (the memory store) keeps nothing.
 */
import type { AppContext } from '../context.ts';
import { listing, type ListMatchesOptions, type MatchListing } from './records.ts';

/** Finished matches' lines, per store, valid while no result was deleted. */
const kept = new WeakMap<object, { deletions: string; lines: Map<number, MatchListing> }>();
/** Lines kept per database (the newest pages are what people look at). */
const MAX_LINES = 5_000;

/** {@link listMatches} of records.ts, with finished matches' lines from the cache. */
export async function cachedListMatches(ctx: AppContext, o: ListMatchesOptions = {}): Promise<MatchListing[]> {
  const { limit, ...filter } = o;
  const canKeep = (await ctx.store.changeMarker()) !== undefined;
  const deletions = (await ctx.store.ladder().getState('results-deleted')) ?? '0';
  let k = kept.get(ctx.store);
  if (!k || k.deletions !== deletions || !canKeep) kept.set(ctx.store, (k = { deletions, lines: new Map() }));
  const out: MatchListing[] = [];
  for (const m of await ctx.store.listMatches(limit, filter)) {
    const hit = k.lines.get(m.id);
    if (hit && m.status === 'finished') {
      out.push(hit);
      continue;
    }
    const line = listing(m, await ctx.store.listSummaries(m.id));
    // The status was read before the results: a match finished by then has all of them.
    if (m.status === 'finished' && canKeep) {
      if (k.lines.size >= MAX_LINES) k.lines.clear();
      k.lines.set(m.id, line);
    }
    out.push(line);
  }
  return out;
}
