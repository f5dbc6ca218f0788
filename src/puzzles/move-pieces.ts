import type { WireMoves } from '../core/types.ts';
import type { MoveFormName } from './move-form.ts';

/**
 * An answer as the referee keeps it while it streams in: blocks of at most {@link BLOCK_BYTES} bytes, so a
 * 50,000,000-move answer costs about its size on the wire (text) or 4–8 bytes a pair, never a JS value per
 * move (a 60 M-pair answer held as arrays of arrays took 4.8–6 GB). Stores write the blocks as they are;
 * {@link joinPieces} turns them back into wire moves for readers.
 *
 * Text-form blocks are UTF-8 bytes of the chunks, concatenated (TextEncoder.encodeInto never splits a
 * character, so each block decodes on its own). Pair-form blocks start with a 4-byte header whose first
 * byte says how the rest reads: 2 = little-endian uint16 pairs, 4 = uint32 pairs, 0 = one chunk as JSON
 * text (values that are not integers in 0..2³²−1: an invalid answer is still recorded as it was sent).
 */
export interface MovePieces {
  readonly form: MoveFormName;
  readonly blocks: readonly Uint8Array[];
  /** Sum of the blocks' lengths. */
  readonly bytes: number;
}

/** Moves as a result carries them into a store: whole wire moves, or the referee's pieces. */
export type RecordedMoves = WireMoves | MovePieces;

/** Largest block; small enough that writing one is a small transient copy. */
export const BLOCK_BYTES = 1 << 20;

/**
 * First block of an answer. Blocks double from here up to {@link BLOCK_BYTES}: most answers are short, and
 * zeroing a whole 1 MiB block for each of them halved the referee's scrambles per second. 64 bytes is as
 * large as V8 keeps a typed array on its own heap: a 4 KiB first block was a buffer of its own, allocated
 * and zeroed outside the heap, for every solve of a fast bot (most answers of small boards fit in 64 bytes).
 */
const FIRST_BLOCK_BYTES = 64;

// Both are stateless between calls (no `stream` decoding here: each block decodes on its own), so one of
// each serves every answer; a TextDecoder made per answer cost the referee ~5 µs a result.
const encoder = new TextEncoder();
const decoder = new TextDecoder();

const HEADER = 4;
const JSON_BLOCK = 0;

/** True for the pieces form (a string or an array is wire moves). */
export function isMovePieces(m: RecordedMoves): m is MovePieces {
  return typeof m === 'object' && !Array.isArray(m);
}

/** Collects the chunks of one answer into {@link MovePieces} as they arrive. */
export class MoveRecorder {
  private readonly blocks: Uint8Array[] = [];
  private block: Uint8Array | undefined;
  /** Bytes used in `block`; for pair blocks, its element width (2 or 4) is in block[0]. */
  private used = 0;
  private total = 0;
  private form: MoveFormName | undefined;
  private nextBlockBytes = FIRST_BLOCK_BYTES;

  /** @param empty the form used when no chunk arrives (the kind's). */
  constructor(private readonly emptyForm: MoveFormName) {}

  /** Appends one chunk. Its form is the first chunk's (a bot sending the wrong form has been judged by then). */
  push(chunk: WireMoves): void {
    const form = (this.form ??= typeof chunk === 'string' ? 'text' : 'pairs');
    if (typeof chunk === 'string') {
      if (form === 'text') this.pushText(chunk);
      else this.pushJson([chunk]);
    } else if (form === 'pairs') this.pushPairs(chunk);
    else this.pushText(JSON.stringify(chunk));
  }

  /** The answer so far. */
  result(): MovePieces {
    if (this.block && this.used > (this.form === 'pairs' ? HEADER : 0)) this.seal();
    return { form: this.form ?? this.emptyForm, blocks: this.blocks, bytes: this.total };
  }

  private newBlock(): Uint8Array {
    const b = new Uint8Array(this.nextBlockBytes);
    this.nextBlockBytes = Math.min(BLOCK_BYTES, 2 * this.nextBlockBytes);
    return b;
  }

  private seal(): void {
    // A part-filled block is copied out, so it does not keep a whole block's memory alive.
    const b = this.used === this.block!.length ? this.block! : this.block!.slice(0, this.used);
    this.blocks.push(b);
    this.total += b.length;
    this.block = undefined;
    this.used = 0;
  }

  private pushText(text: string): void {
    let read = 0;
    while (read < text.length) {
      if (!this.block) this.block = this.newBlock();
      const r = encoder.encodeInto(read === 0 ? text : text.slice(read), this.block.subarray(this.used));
      read += r.read;
      this.used += r.written;
      // Full, or a character that does not fit in the rest of the block: it goes whole into the next one.
      if (read < text.length) this.seal();
    }
  }

  /** A block of values that cannot be packed, joined to the answer as array elements. */
  private pushJson(value: readonly unknown[]): void {
    if (this.block) this.seal();
    const text = encoder.encode(JSON.stringify(value));
    const b = new Uint8Array(HEADER + text.length);
    b[0] = JSON_BLOCK;
    b.set(text, HEADER);
    this.blocks.push(b);
    this.total += b.length;
  }

  private pushPairs(chunk: ReadonlyArray<readonly [number, number]>): void {
    let max = 0;
    for (let i = 0; i < chunk.length; i++) {
      const p: unknown = chunk[i];
      if (!Array.isArray(p) || p.length !== 2) return this.pushJson(chunk);
      const [a, b] = p as unknown[];
      if (!isU32(a) || !isU32(b)) return this.pushJson(chunk);
      if ((a as number) > max) max = a as number;
      if ((b as number) > max) max = b as number;
    }
    const width = max < 0x10000 ? 2 : 4;
    let i = 0;
    while (i < chunk.length) {
      // A new block when there is none, it is narrower than needed, or it has no room for one more pair
      // (a uint32 block holds 131,071 pairs and 4 spare bytes).
      if (!this.block || this.block[0] < width || this.block.length - this.used < 2 * this.block[0]) {
        if (this.block) this.seal();
        this.block = this.newBlock();
        this.block[0] = width;
        this.used = HEADER;
      }
      const w = this.block[0];
      const block = this.block;
      const room = Math.min(chunk.length - i, Math.floor((block.length - this.used) / (2 * w)));
      const view = w === 2 ? new Uint16Array(block.buffer, this.used, 2 * room) : new Uint32Array(block.buffer, this.used, 2 * room);
      for (let k = 0; k < room; k++, i++) {
        view[2 * k] = chunk[i]![0];
        view[2 * k + 1] = chunk[i]![1];
      }
      this.used += 2 * room * w;
    }
  }
}

function isU32(v: unknown): boolean {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 0xffffffff;
}

/** The wire moves of `p` (the inverse of {@link MoveRecorder}). */
export function joinPieces(p: MovePieces): WireMoves {
  if (p.form === 'text') {
    // Each block holds whole characters (see MoveRecorder), so each decodes on its own.
    let out = '';
    for (const b of p.blocks) out += decoder.decode(b);
    return out;
  }
  const out: Array<readonly [number, number]> = [];
  for (const b of p.blocks) appendPairs(b, out);
  return out;
}

/** Appends the pairs of one pair-form block to `out`. */
function appendPairs(b: Uint8Array, out: Array<readonly [number, number]>): void {
  const w = b[0];
  if (w === JSON_BLOCK) {
    const v: unknown = JSON.parse(decoder.decode(b.subarray(HEADER)));
    for (const pair of v as Array<readonly [number, number]>) out.push(pair);
    return;
  }
  const n = (b.length - HEADER) / w;
  // Blocks read back from a database may sit at any offset: copy to align before viewing.
  const aligned = (b.byteOffset + HEADER) % w === 0 ? b : b.slice();
  const view = w === 2 ? new Uint16Array(aligned.buffer, aligned.byteOffset + HEADER, n) : new Uint32Array(aligned.buffer, aligned.byteOffset + HEADER, n);
  for (let k = 0; k < n; k += 2) out.push([view[k]!, view[k + 1]!]);
}

/**
 * The moves of one block of an answer of form `form`, on its own (each block decodes alone: see
 * {@link MoveRecorder}), so a reader can stream an answer a block at a time instead of joining it.
 */
export function blockMoves(form: MoveFormName, block: Uint8Array): WireMoves {
  if (form === 'text') return decoder.decode(block);
  const out: Array<readonly [number, number]> = [];
  appendPairs(block, out);
  return out;
}

/** Wire moves from either form. */
export function wireMovesOf(m: RecordedMoves): WireMoves {
  return isMovePieces(m) ? joinPieces(m) : m;
}
