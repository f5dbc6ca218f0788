/**
 * How the SQLite store keeps a result's moves. Most answers go inline in `results.moves` (notation text, or
 * pairs as JSON). An answer the referee holds in more than {@link INLINE_MOVE_BYTES} of blocks goes into
 * `result_moves` block by block (schema v5): a single value would be copied three times on its way into
 * SQLite (the string's UTF-8, SQLite's own copy, the record), which is what drove a 50,000,000-move answer
 * past 2 GB; a block is at most 1 MiB.
 */
import type Database from 'better-sqlite3';
import type { WireMoves } from '../core/types.ts';
import { MOVE_FORMS, type MoveFormName } from '../puzzles/move-form.ts';
import { blockMoves, isMovePieces, joinPieces, type RecordedMoves } from '../puzzles/move-pieces.ts';
import { decodeMoves, encodeMoves, wellFormed, type MovesKind } from './row-codec.ts';

/** Blocks above this many bytes in all are stored in result_moves. */
export const INLINE_MOVE_BYTES = 8 << 20;

/** What `results.moves_kind` may hold. */
export type StoredMovesKind = MovesKind | 'packed';

/** The value of `results.moves` for a packed answer: one byte naming the move form. */
const FORM_CODE: Record<MoveFormName, number> = { text: 0, pairs: 1 };
const FORM_OF_CODE: readonly MoveFormName[] = ['text', 'pairs'];

/** The `results` columns for some moves, and the blocks to write after the row when it is packed. */
export interface MovesColumns {
  readonly kind: StoredMovesKind;
  readonly value: string | Uint8Array;
  readonly blocks?: readonly Uint8Array[];
}

/** Reads and writes result_moves with statements prepared once. */
export class SqliteMoves {
  private readonly insertBlock;
  private readonly selectBlocks;
  private readonly selectBlock;

  constructor(db: Database.Database) {
    this.insertBlock = db.prepare<[number | bigint, number, Uint8Array]>(`INSERT INTO result_moves (result_id, seq, block) VALUES (?, ?, ?)`);
    this.selectBlocks = db.prepare<[number], { block: Uint8Array }>(`SELECT block FROM result_moves WHERE result_id = ? ORDER BY seq`);
    this.selectBlock = db.prepare<[number, number], { block: Uint8Array }>(`SELECT block FROM result_moves WHERE result_id = ? AND seq = ?`);
  }

  /** The columns of `moves`: inline when small, else packed with its blocks. */
  columns(moves: RecordedMoves): MovesColumns {
    if (isMovePieces(moves) && moves.bytes > INLINE_MOVE_BYTES) {
      return { kind: 'packed', value: Uint8Array.of(FORM_CODE[moves.form]), blocks: moves.blocks };
    }
    const e = encodeMoves(moves);
    // Notation a bot sent with a lone surrogate is kept as U+FFFD, as the blocks keep it (see wellFormed).
    return { kind: e.kind, value: e.kind === 'text' ? wellFormed(e.text) : e.text };
  }

  /** Writes the blocks of a packed row just inserted as `resultId` (the caller holds the transaction). */
  writeBlocks(resultId: number | bigint, blocks: readonly Uint8Array[]): void {
    blocks.forEach((b, seq) => this.insertBlock.run(resultId, seq, b));
  }

  /** The moves of a stored row in pieces: the inline value, or a block at a time (no statement left open). */
  *pieces(resultId: number, kind: StoredMovesKind, value: string | Uint8Array): Generator<WireMoves> {
    if (kind !== 'packed') {
      yield decodeMoves(kind, value as string);
      return;
    }
    const form = FORM_OF_CODE[(value as Uint8Array)[0] ?? 0] ?? 'text';
    yield MOVE_FORMS[form].empty;
    for (let seq = 0; ; seq++) {
      const row = this.selectBlock.get(resultId, seq);
      if (!row) return;
      yield blockMoves(form, row.block);
    }
  }

  /** The moves of a stored row. */
  read(resultId: number, kind: StoredMovesKind, value: string | Uint8Array): WireMoves {
    if (kind !== 'packed') return decodeMoves(kind, value as string);
    const blocks = this.selectBlocks.all(resultId).map((r) => r.block);
    const form = FORM_OF_CODE[(value as Uint8Array)[0] ?? 0] ?? 'text';
    return joinPieces({ form, blocks, bytes: blocks.reduce((n, b) => n + b.length, 0) });
  }
}
