/**
 * SQLite's side of ./stored-moves.ts: a packed result keeps in `results.moves` one byte naming its move form
 * (0 text, 1 pairs: schema v6) and its blocks in `result_moves`, read and written with statements prepared
 * once.
 */
import type Database from 'better-sqlite3';
import type { MoveFormName } from '../../puzzles/move-form.ts';
import type { MovesKind } from '../row-codec.ts';
import { inlineHead, type StoredHead, type StoredMoves } from '../stored-moves.ts';

/** What `results.moves_kind` may hold. */
export type StoredMovesKind = MovesKind | 'packed';

/** The value of `results.moves` for a packed answer: one byte naming the move form. */
const FORM_CODE: Record<MoveFormName, number> = { text: 0, pairs: 1 };
const FORM_OF_CODE: readonly MoveFormName[] = ['text', 'pairs'];

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

  /** The `results` columns (moves_kind, moves) of stored moves. */
  columns(m: StoredMoves): { kind: StoredMovesKind; value: string | Uint8Array } {
    return m.packed ? { kind: 'packed', value: Uint8Array.of(FORM_CODE[m.form]) } : { kind: m.kind, value: m.text };
  }

  /** Writes the blocks of a packed row just inserted as `resultId` (the caller holds the transaction). */
  writeBlocks(resultId: number | bigint, blocks: readonly Uint8Array[]): void {
    blocks.forEach((b, seq) => this.insertBlock.run(resultId, seq, b));
  }

  /** What a stored row's columns say about its moves. */
  head(kind: StoredMovesKind, value: string | Uint8Array): StoredHead {
    return kind === 'packed' ? { form: FORM_OF_CODE[(value as Uint8Array)[0] ?? 0] ?? 'text' } : inlineHead(kind, value as string);
  }

  /** Block `seq` of a packed row (no statement left open between blocks). */
  block(resultId: number, seq: number): Uint8Array | undefined {
    return this.selectBlock.get(resultId, seq)?.block;
  }

  /** Every block of a packed row, in order. */
  blocks(resultId: number): Uint8Array[] {
    return this.selectBlocks.all(resultId).map((r) => r.block);
  }
}
