/**
 * The match list as the web serves it, kept while the database is unchanged: a listing recomputes each
 * listed match's standings from its results (50 matches of 100 results: 50–100 ms), which a page viewed
 * while nothing is played need not redo. Keyed by the store's change marker, read before the list, so a
 * write landing in between only costs one more read; a store without a marker is read every time.
 */
import type { AppContext } from './context.ts';
import { listMatches, type ListMatchesOptions, type MatchListing } from './records.ts';

const cache = new WeakMap<object, { marker: string; lists: Map<string, MatchListing[]> }>();
/** Distinct filters kept per database state (a crawler walking every filter must not grow it without end). */
const MAX_LISTS = 64;

/** {@link listMatches}, from the cache when nothing was written since the same list was made. */
export async function cachedListMatches(ctx: AppContext, o: ListMatchesOptions = {}): Promise<MatchListing[]> {
  const marker = await ctx.store.changeMarker();
  if (marker === undefined) return listMatches(ctx, o);
  let entry = cache.get(ctx.store);
  if (!entry || entry.marker !== marker) cache.set(ctx.store, (entry = { marker, lists: new Map() }));
  const key = JSON.stringify([o.limit, o.bot, o.puzzleClass, o.status]);
  const hit = entry.lists.get(key);
  if (hit) return hit;
  const list = await listMatches(ctx, o);
  if (entry.lists.size >= MAX_LISTS) entry.lists.clear();
  entry.lists.set(key, list);
  return list;
}
