/**
 * The head of a database's seals and the seals outside matches (the optima cache, the ladder's tables), as
 * SQL shared by the SQLite and PostgreSQL stores: the statements differ only in their schema prefix and
 * placeholders, so each store passes its own and runs them in its own way.
 */
import { toGame, toVersion, type GameRow, type VersionRow } from './ladder-rows.ts';
import { opt } from './row-codec.ts';
import { headSeal } from './seal.ts';
import type { SealedTables, SealKey, SealMeta, UnsealedCounts } from './types.ts';

/** The SQL of one store: its schema prefix ("" or "arena.") and its n-th placeholder ("?" or "$n"). */
export interface SqlDialect {
  readonly ns: string;
  readonly p: (n: number) => string;
}

/** A row of {@link unsealedSql}. */
export interface UnsealedRow {
  matches: number | string;
  results: number | string;
  optima: number | string;
  versions: number | string;
  games: number | string;
}

/** One row: how many rows of each sealed table have no seal. */
export function unsealedSql({ ns }: SqlDialect): string {
  const n = (table: string) => `(SELECT count(*) FROM ${ns}${table} WHERE seal IS NULL)`;
  return `SELECT ${n('matches')} AS matches, ${n('results')} AS results, ${n('optima')} AS optima, ${n('bot_versions')} AS versions, ${n('ladder_games')} AS games`;
}

export function unsealedOf(r: UnsealedRow): UnsealedCounts {
  return { matches: Number(r.matches), results: Number(r.results), optima: Number(r.optima), versions: Number(r.versions), games: Number(r.games) };
}

/** Sets the head's counts and seal, only where it has none and the key check is the one sealed. */
export function headUpdateSql({ ns, p }: SqlDialect): string {
  return `UPDATE ${ns}seal_meta SET pre_matches = ${p(1)}, pre_results = ${p(2)}, pre_optima = ${p(3)}, pre_versions = ${p(4)}, pre_games = ${p(5)}, head_seal = ${p(6)}
          WHERE one = 1 AND head_seal IS NULL AND key_check = ${p(7)}`;
}

/**
 * The parameters of {@link headUpdateSql} for a database with a key and no head seal: the rows unsealed now
 * are counted as older than the key (a head is sealed right after the key is claimed, or when an older
 * database is migrated by a process holding its key). Undefined when there is nothing to seal.
 */
export function headParams(k: SealKey, meta: SealMeta, unsealed: UnsealedCounts): unknown[] | undefined {
  if (meta.keyCheck === undefined || meta.headSeal !== undefined) return undefined;
  const preKey = meta.preKey ?? unsealed;
  const sealedAfter = meta.sealedAfter ?? { match: 0, result: 0 };
  const seal = headSeal(k, { keyCheck: meta.keyCheck, sealedAfter, preKey });
  return [preKey.matches, preKey.results, preKey.optima, preKey.versions, preKey.games, seal, meta.keyCheck];
}

/** The reads of {@link SealedTables}, each in a stable order. */
export function sealedTablesSql({ ns }: SqlDialect): { optima: string; versions: string; games: string } {
  return {
    optima: `SELECT state_key, optimal, seal FROM ${ns}optima ORDER BY state_key`,
    versions: `SELECT * FROM ${ns}bot_versions ORDER BY id`,
    games: `SELECT * FROM ${ns}ladder_games ORDER BY id`,
  };
}

/** The rows of {@link sealedTablesSql} as the Store hands them out. */
export function sealedTablesOf(
  optima: readonly { state_key: string; optimal: number; seal: string | null }[],
  versions: readonly (VersionRow & { seal: string | null })[],
  games: readonly (GameRow & { seq: number | null; seal: string | null })[],
  unsealed: UnsealedCounts,
): SealedTables {
  return {
    optima: optima.map((o) => ({ key: o.state_key, optimal: Number(o.optimal), ...opt('seal', o.seal) })),
    versions: versions.map((v) => ({ version: toVersion(v), ...opt('seal', v.seal) })),
    games: games.map((g) => ({ game: toGame(g), ...opt('seq', g.seq), ...opt('seal', g.seal) })),
    unsealed,
  };
}
