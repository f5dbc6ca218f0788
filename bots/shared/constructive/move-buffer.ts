/**
 * Growable buffer of blank moves (0 U, 1 D, 2 L, 3 R; `d ^ 1` is the inverse move). Cancellation is done
 * on the fly: pushing the inverse of the last kept move pops it instead, which is exactly the "remove a
 * move followed by its inverse, repeatedly" stack pass, so the buffer never holds a cancelling pair.
 */

const LETTER_CODES = [85, 68, 76, 82]; // 'U' 'D' 'L' 'R'

/** A stack of move codes with inverse-pair cancellation. */
export class MoveBuffer {
  private buf: Uint8Array;
  private len = 0;

  constructor(initialCapacity = 1024) {
    this.buf = new Uint8Array(Math.max(16, initialCapacity));
  }

  /** Number of moves kept (after cancellation). */
  get length(): number {
    return this.len;
  }

  /** Appends move `d`, or drops the last move when `d` undoes it. */
  push(d: number): void {
    const n = this.len;
    if (n > 0 && this.buf[n - 1] === (d ^ 1)) {
      this.len = n - 1;
      return;
    }
    if (n === this.buf.length) {
      const bigger = new Uint8Array(n * 2);
      bigger.set(this.buf);
      this.buf = bigger;
    }
    this.buf[n] = d;
    this.len = n + 1;
  }

  /** The kept moves as letters, in chunks of at most `chunkSize` characters (one chunk when short). */
  toChunks(chunkSize: number): string[] {
    const size = Math.max(1, Math.floor(chunkSize));
    const ascii = new Uint8Array(this.len);
    for (let i = 0; i < this.len; i++) ascii[i] = LETTER_CODES[this.buf[i]];
    // latin1 decoding maps bytes 1:1 to characters, and these are all ASCII.
    const dec = new TextDecoder('latin1');
    const out: string[] = [];
    for (let i = 0; i < this.len; i += size) out.push(dec.decode(ascii.subarray(i, Math.min(this.len, i + size))));
    if (out.length === 0) out.push('');
    return out;
  }

  /** All kept moves as one string. */
  toString(): string {
    return this.toChunks(Math.max(1, this.len)).join('');
  }
}
