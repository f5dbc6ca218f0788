/**
 * The SHA-256 of an answer as a seal covers it: of its stored text (notation verbatim as UTF-8, or the pairs
 * as their JSON array), computed chunk by chunk, so a 16.7 M-move answer is digested as it streams and the
 * same answer gives the same digest whether it was kept whole, inline, or in blocks.
 */
import { createHash, type Hash } from 'node:crypto';
import type { WireMoves } from '../core/types.ts';
import { blockMoves, isMovePieces, type RecordedMoves } from '../puzzles/move-pieces.ts';

/** A digest fed the chunks of one answer in order; every chunk has the answer's form. */
export class MovesDigest {
  private readonly hash: Hash = createHash('sha256');
  private form: 'text' | 'pairs' | undefined;
  private elements = 0;

  /** Adds one chunk (a string, or an array of pairs). */
  push(chunk: WireMoves): void {
    if (typeof chunk === 'string') {
      this.form ??= 'text';
      this.hash.update(chunk);
      return;
    }
    if (this.form === undefined) {
      this.form = 'pairs';
      this.hash.update('[');
    }
    // Element by element, as JSON.stringify writes the whole array (no spaces), without building it.
    for (const el of chunk) this.hash.update((this.elements++ === 0 ? '' : ',') + JSON.stringify(el));
  }

  /** Adds UTF-8 bytes of a text answer (a stored block), as pushing their text would. */
  pushUtf8(bytes: Uint8Array): void {
    this.form ??= 'text';
    this.hash.update(bytes);
  }

  /** The digest, hex. An answer with no chunk at all is the empty text. */
  hex(): string {
    if (this.form === 'pairs') this.hash.update(']');
    return this.hash.digest('hex');
  }
}

/** The digest of moves as a result carries them into a store (whole, or the referee's blocks). */
export function recordedMovesDigest(moves: RecordedMoves): string {
  const d = new MovesDigest();
  if (!isMovePieces(moves)) {
    d.push(moves);
    return d.hex();
  }
  if (moves.blocks.length === 0) d.push(moves.form === 'text' ? '' : []);
  for (const b of moves.blocks) {
    if (moves.form === 'text') d.pushUtf8(b);
    else d.push(blockMoves('pairs', b));
  }
  return d.hex();
}
