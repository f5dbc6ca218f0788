/**
 * How every store keeps a result's moves, whatever its database. Most answers go inline in `results.moves`
 * (notation text, or pairs as JSON). An answer the referee holds in more than {@link INLINE_MOVE_BYTES} of
 * blocks is "packed": its blocks (at most 1 MiB each, src/puzzles/move-pieces.ts) go into `result_moves` one
 * row each, so no write or read ever holds the whole answer as one value (a single value is copied three
 * times on its way into a database, which once drove a 50,000,000-move answer past 2 GB).
 *
 * Reading is the same for every store: piece 0 is the inline answer, or for a packed one its form's empty
 * moves (so even an answer of no blocks yields a piece), and piece k ≥ 1 is block k − 1.
 */
import type { WireMoves } from '../core/types.ts';
import { MOVE_FORMS, type MoveFormName } from '../puzzles/move-form.ts';
import { blockMoves, isMovePieces, joinPieces, type RecordedMoves } from '../puzzles/move-pieces.ts';
import { encodeMoves, wellFormed, type MovesKind } from './row-codec.ts';

/** Blocks above this many bytes in all are stored in result_moves. */
export const INLINE_MOVE_BYTES = 8 << 20;

/** An answer as a store writes it: inline text, or packed blocks. */
export type StoredMoves =
  | { readonly packed: false; readonly kind: MovesKind; readonly text: string }
  | { readonly packed: true; readonly form: MoveFormName; readonly blocks: readonly Uint8Array[] };

/** An answer as a store reads its row: the inline moves, or the form of its blocks. */
export type StoredHead = { readonly inline: WireMoves } | { readonly form: MoveFormName };

/** Reads block `seq` of a packed answer (undefined past the last). */
export type BlockReader = (seq: number) => Uint8Array | undefined | Promise<Uint8Array | undefined>;

/** The stored shape of `moves`: inline when small, else packed. */
export function storedMovesOf(moves: RecordedMoves): StoredMoves {
  if (isMovePieces(moves) && moves.bytes > INLINE_MOVE_BYTES) return { packed: true, form: moves.form, blocks: moves.blocks };
  const e = encodeMoves(moves);
  // Notation a bot sent with a lone surrogate is kept as U+FFFD, as the blocks keep it (see wellFormed).
  return { packed: false, kind: e.kind, text: e.kind === 'text' ? wellFormed(e.text) : e.text };
}

/** The pieces of a stored answer from piece `from` on (see the file comment), one block read at a time. */
export async function* storedPieces(head: StoredHead, readBlock: BlockReader, from = 0): AsyncGenerator<WireMoves> {
  if ('inline' in head) {
    if (from === 0) yield head.inline;
    return;
  }
  if (from === 0) yield MOVE_FORMS[head.form].empty;
  for (let seq = Math.max(0, from - 1); ; seq++) {
    const block = await readBlock(seq);
    if (!block) return;
    yield blockMoves(head.form, block);
  }
}

/** A stored answer joined whole (for the readers that ask for a result with its moves). */
export function joinStored(head: StoredHead, blocks: () => readonly Uint8Array[]): WireMoves {
  if ('inline' in head) return head.inline;
  const all = blocks();
  return joinPieces({ form: head.form, blocks: all, bytes: all.reduce((n, b) => n + b.length, 0) });
}

/** Decodes inline moves of a stored kind. */
export function inlineHead(kind: MovesKind, text: string): StoredHead {
  return { inline: MOVE_FORMS[kind].decode(text) };
}
