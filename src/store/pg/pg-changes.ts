/**
 * The PostgreSQL store's change marker: the sum of the per-connection write counters the ladder schema
 * step's triggers keep (./ladder-schema.ts). A reader reads it before the data, so a write committed in
 * between only costs one more read next time; nothing stale is served.
 */
import type pg from 'pg';
import { withReconnect } from './pg-connect.ts';

/** The marker now: it moves whenever a write to matches, scrambles, results or the ladder's games and versions commits. */
export async function pgChangeMarker(pool: pg.Pool): Promise<string> {
  const { rows } = await withReconnect(() => pool.query<{ n: string | null; k: string }>(`SELECT sum(n)::text AS n, count(*)::text AS k FROM arena.change_counts`), true);
  return `${rows[0]?.n ?? 0}:${rows[0]?.k ?? 0}`;
}
