/**
 * The SQLite store's cache of exact optima (table `optima`, schema v7): statements prepared once. Kept out
 * of sqlite-store.ts, which is long enough.
 */
import type Database from 'better-sqlite3';
import { nowIso } from '../row-codec.ts';
import { optimumSeal } from '../seal.ts';
import type { KnownOptimum, SealKey } from '../types.ts';

/** Reads and writes `optima`. */
export class SqliteOptima {
  private readonly select;
  private readonly insert;
  private readonly insertAll;

  constructor(db: Database.Database) {
    // One statement for any number of keys: the keys go in as one JSON array.
    this.select = db.prepare<[string], { state_key: string; optimal: number }>(
      `SELECT state_key, optimal FROM optima WHERE state_key IN (SELECT value FROM json_each(?))`,
    );
    this.insert = db.prepare<[string, number, string, string | null]>(
      `INSERT INTO optima (state_key, optimal, created_at, seal) VALUES (?, ?, ?, ?) ON CONFLICT (state_key) DO NOTHING`,
    );
    this.insertAll = db.transaction((optima: readonly KnownOptimum[], at: string, k: SealKey | undefined) => {
      for (const o of optima) this.insert.run(o.key, o.optimal, at, k ? optimumSeal(k, o.key, o.optimal) : null);
    }).immediate; // a write transaction takes the lock first, so it can wait for it (sqlite-busy.ts)
  }

  known(keys: readonly string[]): Map<string, number> {
    if (keys.length === 0) return new Map();
    return new Map(this.select.all(JSON.stringify(keys)).map((r) => [r.state_key, r.optimal]));
  }

  /** Caches optima, each sealed with `k` when given; a key already cached keeps its value and seal. */
  add(optima: readonly KnownOptimum[], k: SealKey | undefined): void {
    if (optima.length > 0) this.insertAll(optima, nowIso(), k);
  }
}
