/**
 * The SQLite store's write path for results: one INSERT per result, prepared once, and a transaction made
 * once for what needs one (a seal, the blocks of a long answer, several results at a time). A fast bot's
 * result costs the referee mostly this write, so it does as little per call as it can: an unsealed inline
 * answer alone is one autocommitted statement, and a batch is one commit however many rows it holds.
 */
import type Database from 'better-sqlite3';
import { recordedMovesDigest } from './moves-digest.ts';
import { nowIso, wellFormed } from './row-codec.ts';
import type { SealKey } from './seal.ts';
import type { SqliteMoves } from './sqlite-moves.ts';
import { isForeignKeyViolation } from './sqlite-rows.ts';
import type { SqliteSeals } from './sqlite-seals.ts';
import type { ResultRecord } from './types.ts';

/** The named parameters of the results INSERT. */
type ResultParams = Record<string, string | number | Uint8Array | null>;

/** One result ready for the INSERT: its parameters, and what a sealed or packed answer adds. */
interface ResultRowWrite {
  readonly r: ResultRecord;
  readonly params: ResultParams;
  readonly key: SealKey | undefined;
  readonly digest: string;
  readonly blocks?: readonly Uint8Array[];
}

/** Writes results into `results` (and `result_moves`, and the seal counts) of one database. */
export class SqliteResultWrites {
  private readonly insert;
  private readonly scrambleExists;
  private readonly writeRows: (rows: readonly ResultRowWrite[]) => void;

  constructor(
    db: Database.Database,
    private readonly moves: SqliteMoves,
    private readonly seals: SqliteSeals,
    /** The seal key in force at the time of each write (it is set after the store opens). */
    private readonly sealKey: () => SealKey | undefined,
  ) {
    this.insert = db.prepare(
      `INSERT INTO results (scramble_id, bot, verdict, move_count, moves_kind, moves, wall_ms, cpu_ms, reported_ms,
                            claimed_optimal, note, nodes, error_index, error, worker, cpu, created_at, seq, moves_sha256, seal)
       VALUES (@scrambleId, @bot, @verdict, @moveCount, @movesKind, @moves, @wallMs, @cpuMs, @reportedMs,
               @claimedOptimal, @note, @nodes, @errorIndex, @error, @worker, @cpu, @createdAt, @seq, @movesSha256, @seal)
       ON CONFLICT (scramble_id, bot) DO NOTHING`,
    );
    this.scrambleExists = db.prepare<[number], { id: number }>(`SELECT id FROM scrambles WHERE id = ?`);
    // Made once: better-sqlite3 builds four wrapper functions per transaction() call.
    this.writeRows = db.transaction((rows: readonly ResultRowWrite[]) => {
      // One transaction (the rows, the blocks of long answers, their seals), durable when it returns. A second
      // result for a pair (a retried job) is dropped by ON CONFLICT: the first write wins, blocks and all.
      for (const { r, params, key, digest, blocks } of rows) {
        // The seal covers the result's number in its match, which only this transaction can give.
        const sealed = key ? this.seals.resultColumns(key, r, digest) : undefined;
        const info = this.insert.run(sealed ? { ...params, seq: sealed.seq, movesSha256: digest, seal: sealed.seal } : params);
        if (info.changes !== 1) continue;
        if (blocks) this.moves.writeBlocks(info.lastInsertRowid, blocks);
        if (key && sealed) this.seals.countResult(key, sealed.matchId, sealed.seq);
      }
    });
  }

  /** Commits one result (see Store.recordResult). */
  one(r: ResultRecord): void {
    const row = this.row(r);
    try {
      // An unsealed answer held inline is one statement, atomic and durable on its own (autocommit): no
      // BEGIN/COMMIT of its own, which was a good part of the per-result cost of a fast bot.
      if (!row.key && !row.blocks) this.insert.run(row.params);
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

  /** The INSERT's parameters for `r`, its blocks when packed, and the seal key and digest when sealing. */
  private row(r: ResultRecord): ResultRowWrite {
    const moves = this.moves.columns(r.moves);
    const key = this.sealKey();
    const params: ResultParams = {
      scrambleId: r.scrambleId,
      bot: r.bot,
      verdict: r.verdict,
      moveCount: r.moveCount,
      movesKind: moves.kind,
      moves: moves.value,
      wallMs: r.wallMs,
      cpuMs: r.cpuMs ?? null,
      reportedMs: r.reportedMs ?? null,
      claimedOptimal: r.claimedOptimal === undefined ? null : r.claimedOptimal ? 1 : 0,
      note: wellFormed(r.note) ?? null,
      nodes: r.nodes ?? null,
      errorIndex: r.errorIndex ?? null,
      error: wellFormed(r.error) ?? null,
      worker: wellFormed(r.worker) ?? null,
      cpu: wellFormed(r.cpu) ?? null,
      createdAt: nowIso(),
      seq: null,
      movesSha256: null,
      seal: null,
    };
    // The digest is taken before the transaction, so the write lock is not held for hashing.
    return { r, params, key, digest: key ? recordedMovesDigest(r.moves) : '', ...(moves.blocks ? { blocks: moves.blocks } : {}) };
  }

  /** A missing scramble in the words of the Store contract; anything else as it is. */
  private named(err: unknown, r: ResultRecord): unknown {
    return isForeignKeyViolation(err) ? new Error(`recordResult: no scramble ${r.scrambleId}`) : err;
  }
}
