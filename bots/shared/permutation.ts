/**
 * Checking a swap puzzle's pieces before solving, shared by the swap bots. The SDK hands a bot the puzzle as
 * the referee sent it, checked for shape only (see src/protocol/schema.ts), so a bot checks the content
 * itself rather than loop or throw on a bad board.
 */

/** Checks that `tiles` is a permutation of 1..n and returns it as a typed array, else null. */
export function toPermutation(tiles: ArrayLike<number>): Uint32Array | null {
  const n = tiles.length;
  const a = new Uint32Array(n);
  const seen = new Uint8Array(n + 1);
  for (let i = 0; i < n; i++) {
    const t = tiles[i];
    if (!(Number.isInteger(t) && t >= 1 && t <= n) || seen[t]) return null;
    seen[t] = 1;
    a[i] = t;
  }
  return a;
}
