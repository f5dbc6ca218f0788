/**
 * Removes loops from a move sequence: whenever the board comes back to a state it was in before, the moves
 * in between are dropped. The beam forgets old states on purpose (seen-cache.ts), so it can walk into one
 * again; this pass makes sure such a walk never reaches the answer. States are keyed by a 52-bit Zobrist
 * hash and compared in full on a hash match, so a collision can never cut a path that is not a loop.
 */
const DIRS = 'UDLR';
const HALF = 0x4000000; // 2^26

/** `moves` (blank letters U/D/L/R, all legal) from `tiles` on an R×C board, with every loop cut out. */
export function removeCycles(rows: number, cols: number, tiles: ArrayLike<number>, moves: string): string {
  const n = rows * cols;
  const board = Array.from(tiles);
  // Two 26-bit Zobrist halves per (cell, tile), from a fixed xorshift32 stream.
  const zHi = new Int32Array(n * n);
  const zLo = new Int32Array(n * n);
  let x = 0x2545f491;
  const next = (): number => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 6) & (HALF - 1);
  };
  for (let i = 0; i < n * n; i++) {
    zHi[i] = next();
    zLo[i] = next();
  }
  let hi = 0;
  let lo = 0;
  let blank = 0;
  for (let c = 0; c < n; c++) {
    hi ^= zHi[c * n + board[c]];
    lo ^= zLo[c * n + board[c]];
    if (board[c] === 0) blank = c;
  }
  const states: number[][] = [board.slice()];
  const keys: number[] = [hi * HALF + lo];
  const index = new Map<number, number>([[keys[0], 0]]);
  const out: number[] = [];
  for (let i = 0; i < moves.length; i++) {
    const d = DIRS.indexOf(moves[i]);
    const to = d === 0 ? blank - cols : d === 1 ? blank + cols : d === 2 ? blank - 1 : blank + 1;
    const t = board[to];
    hi ^= zHi[to * n + t] ^ zHi[blank * n] ^ zHi[blank * n + t] ^ zHi[to * n];
    lo ^= zLo[to * n + t] ^ zLo[blank * n] ^ zLo[blank * n + t] ^ zLo[to * n];
    board[blank] = t;
    board[to] = 0;
    blank = to;
    out.push(d);
    const key = hi * HALF + lo;
    const k = index.get(key);
    if (k !== undefined && states[k].every((v, c) => v === board[c])) {
      // Back where the path stood after k moves: forget everything since.
      for (let j = k + 1; j < states.length; j++) if (index.get(keys[j]) === j) index.delete(keys[j]);
      states.length = k + 1;
      keys.length = k + 1;
      out.length = k;
      continue;
    }
    states.push(board.slice());
    keys.push(key);
    index.set(key, states.length - 1);
  }
  return out.map((d) => DIRS[d]).join('');
}
