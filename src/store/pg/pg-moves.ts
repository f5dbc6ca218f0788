/**
 * PostgreSQL's side of ./stored-moves.ts (schema v7): a packed result keeps in `results.moves` the name of
 * its move form and its blocks in `arena.result_moves` (bytea), written inside the result's transaction and
 * read one block per statement, so neither a write nor a read holds more than a block beyond the row.
 */
import type pg from 'pg';
import type { MoveFormName } from '../../puzzles/move-form.ts';
import { inlineHead, type StoredHead, type StoredMoves } from '../stored-moves.ts';
import type { SharedSql } from '../sql-text.ts';

/** What `arena.results.moves_kind` may hold: 'json' is a JSON string literal for text PostgreSQL cannot hold. */
export type PgMovesKind = 'text' | 'pairs' | 'json' | 'packed';

/** The `results` columns (moves_kind, moves) of stored moves. */
export function pgMovesColumns(m: StoredMoves): { kind: PgMovesKind; value: string } {
  if (m.packed) return { kind: 'packed', value: m.form };
  // A string PostgreSQL text cannot hold (one with U+0000) is stored as a JSON string literal (lossless).
  return m.kind === 'text' && m.text.includes('\u0000') ? { kind: 'json', value: JSON.stringify(m.text) } : { kind: m.kind, value: m.text };
}

/** What a stored row's columns say about its moves. */
export function pgMovesHead(kind: PgMovesKind, value: string): StoredHead {
  if (kind === 'packed') return { form: value as MoveFormName };
  return kind === 'json' ? { inline: JSON.parse(value) as string } : inlineHead(kind, value);
}

/** Writes the blocks of a result row just inserted as `resultId`, inside its transaction. */
export async function writePgBlocks(c: pg.ClientBase, sql: SharedSql, resultId: number, blocks: readonly Uint8Array[]): Promise<void> {
  for (let seq = 0; seq < blocks.length; seq++) {
    const b = blocks[seq];
    // A Buffer view of the block (no copy): the driver sends Buffers as bytea.
    await c.query(sql.insertBlock, [resultId, seq, Buffer.from(b.buffer, b.byteOffset, b.byteLength)]);
  }
}
