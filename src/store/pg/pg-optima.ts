/**
 * The PostgreSQL store's cache of exact optima (table `arena.optima`, schema v5), kept out of pg-store.ts.
 * Both statements are idempotent (a read; an insert that ignores keys already there), so both may be
 * retried across a reconnect.
 */
import type pg from 'pg';
import { optimumSeal } from '../seal.ts';
import type { KnownOptimum, SealKey } from '../types.ts';

/** Runs one statement, retried across a reconnect (the store's own query function). */
export type PgQuery = <R extends pg.QueryResultRow>(sql: string, params: unknown[], idempotent: boolean) => Promise<pg.QueryResult<R>>;

/** The cached optima of `keys`. */
export async function pgKnownOptima(q: PgQuery, keys: readonly string[]): Promise<Map<string, number>> {
  if (keys.length === 0) return new Map();
  const { rows } = await q<{ state_key: string; optimal: number }>(
    `SELECT state_key, optimal FROM arena.optima WHERE state_key = ANY($1::text[])`,
    [keys],
    true,
  );
  return new Map(rows.map((r) => [r.state_key, r.optimal]));
}

/** Caches optima, each sealed with `k` when given; keys already cached keep their value and seal. */
export async function pgAddOptima(q: PgQuery, optima: readonly KnownOptimum[], k?: SealKey): Promise<void> {
  if (optima.length === 0) return;
  await q(
    `INSERT INTO arena.optima (state_key, optimal, seal) SELECT * FROM unnest($1::text[], $2::int[], $3::text[]) ON CONFLICT (state_key) DO NOTHING`,
    [optima.map((o) => o.key), optima.map((o) => o.optimal), optima.map((o) => (k ? optimumSeal(k, o.key, o.optimal) : null))],
    true,
  );
}
