/**
 * The beam search's bookkeeping helpers: Zobrist keys for its duplicate filter and the walk back through
 * recorded parents that spells a finished state's moves.
 */

/** The blank's move letters, by direction index. */
export const LETTERS = 'UDLR';
/** The direction that undoes each direction (index 4: no previous move). */
export const INVERSE = [1, 0, 3, 2, 4];

/** Zobrist keys per (cell, tile) from a fixed seed, so runs are deterministic. */
export function zobrist(n: number, seed: number): Uint32Array {
  const z = new Uint32Array(n * n);
  let s = seed | 0;
  for (let i = 0; i < z.length; i++) {
    s = (s + 0x9e3779b9) | 0; // splitmix32
    let x = s;
    x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
    x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
    z[i] = (x ^ (x >>> 16)) >>> 0;
  }
  return z;
}

/** The moves from the start to state `idx` of the last layer recorded in `parents`/`dirs`. */
export function pathTo(parents: readonly Int32Array[], dirs: readonly Uint8Array[], idx: number): string {
  const out: string[] = [];
  for (let l = parents.length - 1; l >= 0; l--) {
    out.push(LETTERS[dirs[l][idx]]);
    idx = parents[l][idx];
  }
  return out.reverse().join('');
}
