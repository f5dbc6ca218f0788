/**
 * One beam layer's states in flat typed arrays: the tiles of state s at tiles[s·stride ..], stride being the
 * cell count rounded up to whole 32-bit words so a state is copied a word at a time. The beam keeps two of
 * these and alternates, so a search allocates no per-state objects.
 */
export class StateBuffer {
  count = 0;
  readonly stride: number;
  readonly tiles: Uint8Array;
  private readonly words: Int32Array;
  readonly blank: Int16Array;
  /** Current plan step. */
  readonly step: Int16Array;
  /** Cells of the current step's tiles (posB = −1 for a one-tile step). */
  readonly posA: Int16Array;
  readonly posB: Int16Array;
  /** The estimate's part for later steps (see beam.ts). */
  readonly future: Float64Array;
  /** 64-bit Zobrist hash, two halves. */
  readonly h1: Uint32Array;
  readonly h2: Uint32Array;
  /** The move that made the state (4 for the start). */
  readonly last: Uint8Array;

  constructor(capacity: number, cells: number) {
    this.stride = (cells + 3) & ~3;
    this.words = new Int32Array((capacity * this.stride) / 4);
    this.tiles = new Uint8Array(this.words.buffer);
    this.blank = new Int16Array(capacity);
    this.step = new Int16Array(capacity);
    this.posA = new Int16Array(capacity);
    this.posB = new Int16Array(capacity);
    this.future = new Float64Array(capacity);
    this.h1 = new Uint32Array(capacity);
    this.h2 = new Uint32Array(capacity);
    this.last = new Uint8Array(capacity);
  }

  /** Copies the tiles of state `from` of `src` into state `to` of this buffer (other fields are the caller's). */
  copyFrom(src: StateBuffer, from: number, to: number): void {
    const w = this.stride >> 2;
    const a = src.words;
    const b = this.words;
    for (let i = 0, x = from * w, y = to * w; i < w; i++) b[y + i] = a[x + i];
  }
}
