/**
 * Seed 002's iterative method for the standard puzzle: a tower of n discs on peg `from` → peg `to`.
 *
 * The smallest disc moves on every odd move, always the same way round: from → to → aux → from when n is
 * odd, from → aux → to → from when n is even (seed 002: "left" for odd n, "right" for even n, with A → C).
 * On even move m the disc that moves is given by the lowest set bit of m; it is the only legal move not
 * involving the smallest disc, so its destination is the one peg holding neither it nor the smallest disc.
 * Positions live in a byte array: O(1) per move, no stacks, no recursion.
 */

/** Default chunk size in characters (2 per move), about 1 MB. */
export const DEFAULT_CHUNK_CHARS = 1 << 20;

const LATIN1 = new TextDecoder('latin1');

/** Yields the 2^n − 1 moves ("ACAB...") in chunks of at most `chunkChars` characters. Pegs are 0..2. */
export function* iterativeChunks(n: number, from: number, to: number, chunkChars = DEFAULT_CHUNK_CHARS): Generator<string, void, undefined> {
  const size = Math.max(2, Math.min(chunkChars & ~1, 2 * (2 ** n - 1)));
  const buf = new Uint8Array(size);
  let len = 0;
  const aux = 3 - from - to;
  const cycle = n % 2 === 1 ? [from, to, aux] : [from, aux, to];
  const peg = new Uint8Array(n).fill(from);
  let smallAt = 0; // index into `cycle` of the smallest disc's peg
  const total = 2 ** n;
  for (let m = 1; m < total; m++) {
    let src: number;
    let dst: number;
    if (m & 1) {
      src = cycle[smallAt];
      smallAt = smallAt === 2 ? 0 : smallAt + 1;
      dst = cycle[smallAt];
      peg[0] = dst;
    } else {
      // m < 2^24 here, so the 32-bit trick for the lowest set bit is exact.
      const d = 31 - Math.clz32(m & -m);
      src = peg[d];
      dst = 3 - src - peg[0];
      peg[d] = dst;
    }
    buf[len++] = 65 + src;
    buf[len++] = 65 + dst;
    if (len === size) {
      yield LATIN1.decode(buf);
      len = 0;
    }
  }
  if (len > 0) yield LATIN1.decode(buf.subarray(0, len));
}
