/**
 * The SQLite store's write path for results: the shared INSERT (sql-text.ts), prepared once, and a
 * transaction made once for what needs one (a seal, the blocks of a long answer, several results at a time).
 * A fast bot's result costs the referee mostly this write, so it does as little per call as it can: an
 * unsealed inline answer alone is one autocommitted statement, and a batch is one commit however many rows
 * it holds.
 */
import type Database from 'better-sqlite3';
import { recordedMovesDigest } from '../moves-digest.ts';
import { nowIso } from '../row-codec.ts';
import type { SealKey } from '../seal.ts';
import { SQLITE } from '../sql-rows.ts';
import { resultValues } from '../sql-text.ts';
import { isForeignKeyViolation } from './sqlite-errors.ts';
import type { SqliteMoves } from './sqlite-moves.ts';
import type { SqliteSeals } from './sqlite-seals.ts';
import { storedMovesOf, type StoredMoves } from '../stored-moves.ts';
import type { ResultRecord } from '../types.ts';

/** One result ready for the INSERT: how its moves are stored, and the seal key and digest when sealing. */
interface ResultRowWrite {
  readonly r: ResultRecord;
  readonly stored: StoredMoves;
  readonly key: SealKey | undefined;
  readonly digest: string;
}

/** Writes results into `results` (and `result_moves`, and the seal counts) of one database. */
export class SqliteResultWrites {
  private readonly writeRows: (rows: readonly ResultRowWrite[]) => void;
  private readonly scrambleExists;

  constructor(
    db: Database.Database,
    /** The shared results INSERT, bound by position (ON CONFLICT DO NOTHING: the first write of a pair wins). */
    private readonly insert: Database.Statement<unknown[]>,
    private readonly moves: SqliteMoves,
    private readonly seals: SqliteSeals,
    /** The seal key in force at the time of each write (it is set after the store opens). */
    private readonly sealKey: () => SealKey | undefined,
  ) {
    this.scrambleExists = db.prepare<[number], { id: number }>(`SELECT id FROM scrambles WHERE id = ?`);
    // Made once: better-sqlite3 builds four wrapper functions per transaction() call.
    this.writeRows = db.transaction((rows: readonly ResultRowWrite[]) => {
      // One transaction (the rows, the blocks of long answers, their seals), durable when it returns. A second
      // result for a pair (a retried job) is dropped by ON CONFLICT: the first write wins, blocks and all.
      for (const { r, stored, key, digest } of rows) {
        // The seal covers the result's number in its match, which only this transaction can give.
        const sealed = key ? this.seals.resultColumns(key, r, digest) : undefined;
        const info = this.insert.run(...resultValues(SQLITE, r, this.moves.columns(stored), nowIso(), sealed && { ...sealed, movesSha256: digest }));
        if (info.changes !== 1) continue;
        if (stored.packed) this.moves.writeBlocks(info.lastInsertRowid, stored.blocks);
        if (key && sealed) this.seals.countResult(key, sealed.matchId, sealed.seq);
      }
      // IMMEDIATE: the seal's read comes before the insert, and a deferred transaction that reads first cannot
      // wait for another writer's lock (SQLITE_BUSY at once; see sqlite-busy.ts).
    }).immediate;
  }

  /** Commits one result (see Store.recordResult). */
  one(r: ResultRecord): void {
    const row = this.row(r);
    try {
      // An unsealed answer held inline is one statement, atomic and durable on its own (autocommit): no
      // BEGIN/COMMIT of its own, which was a good part of the per-result cost of a fast bot.
      if (!row.key && !row.stored.packed) this.insert.run(...resultValues(SQLITE, r, this.moves.columns(row.stored), nowIso()));
      else this.writeRows([row]);
    } catch (err) {
      throw this.named(err, r);
    }
  }

  /** Commits several results in one transaction, all or none (see Store.recordResults). */
  many(rs: readonly ResultRecord[]): void {
    if (rs.length === 0) return;
    const rows = rs.map((r) => this.row(r));
    try {
      // One commit for all: it writes each page the rows touched to the WAL once, and takes its locks once.
      this.writeRows(rows);
    } catch (err) {
      throw this.named(err, rs.find((r) => this.scrambleExists.get(r.scrambleId) === undefined) ?? rs[0]!);
    }
  }

  /** How `r`'s moves are stored, and the seal key and digest when sealing. */
  private row(r: ResultRecord): ResultRowWrite {
    const key = this.sealKey();
    // The digest is taken before the transaction, so the write lock is not held for hashing.
    return { r, stored: storedMovesOf(r.moves), key, digest: key ? recordedMovesDigest(r.moves) : '' };
  }

  /** A missing scramble in the words of the Store contract; anything else as it is. */
  private named(err: unknown, r: ResultRecord): unknown {
    return isForeignKeyViolation(err) ? new Error(`recordResult: no scramble ${r.scrambleId}`) : err;
  }
}
