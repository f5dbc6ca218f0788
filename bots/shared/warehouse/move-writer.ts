/**
 * Growable ASCII buffer of warehouse moves ("17U 4L …") cut into string chunks of at most CHUNK_BYTES,
 * always at a token boundary, so a multi-million-move answer streams without ever being one big string.
 */

/** Largest chunk emitted, in bytes (one byte per character: the notation is ASCII). */
export const CHUNK_BYTES = 1_000_000;

/** Room kept for one more token (up to 10 digits, a letter, a space) before a chunk is cut. */
const TOKEN_MAX = 12;

/** Collects moves and hands out finished chunks. */
export class MoveWriter {
  private buf = new Uint8Array(1 << 12);
  private len = 0;
  private readonly done: string[] = [];
  /** Moves written so far. */
  count = 0;

  /** Appends "<tile><dir> "; `dir` is the char code of U, D, L or R. */
  push(tile: number, dir: number): void {
    if (this.len + TOKEN_MAX > this.buf.length) this.grow();
    let start = this.len;
    // Digits are written backwards then reversed in place: no string allocation per move.
    let t = tile;
    do {
      this.buf[this.len++] = 48 + (t % 10);
      t = (t / 10) | 0;
    } while (t > 0);
    for (let end = this.len - 1; start < end; start++, end--) {
      const x = this.buf[start];
      this.buf[start] = this.buf[end];
      this.buf[end] = x;
    }
    this.buf[this.len++] = dir;
    this.buf[this.len++] = 32;
    this.count++;
    if (this.len + TOKEN_MAX > CHUNK_BYTES) this.cut();
  }

  /** Finished chunks since the last call (the open tail stays until {@link end}). */
  take(): string[] {
    return this.done.splice(0, this.done.length);
  }

  /** Closes the open tail and returns every chunk not yet taken. */
  end(): string[] {
    this.cut();
    return this.take();
  }

  private grow(): void {
    const next = new Uint8Array(Math.min(this.buf.length * 2, CHUNK_BYTES));
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }

  private cut(): void {
    if (this.len === 0) return;
    // Drop the trailing space; whitespace between tokens is optional, so "17U" + "4L" still parses.
    const body = this.buf.subarray(0, this.len - 1);
    const text = Buffer.from(body.buffer, body.byteOffset, body.length).toString('latin1');
    this.done.push(text);
    this.len = 0;
  }
}

/**
 * Runs a solution generator (string chunks, returning the move count) to the end and joins its chunks: the
 * whole answer as one string, for tests and benchmarks.
 */
export function joinSolution(solution: Generator<string, number>): { moves: string; count: number } {
  const parts: string[] = [];
  for (let r = solution.next(); ; r = solution.next()) {
    if (r.done) return { moves: parts.join(''), count: r.value };
    parts.push(r.value);
  }
}
