/**
 * Lehmer-code ranking of permutations of 0..n−1 (n ≤ 12), so every board of a sliding shape gets a dense
 * index into typed arrays. O(n²) per call, which for n ≤ 10 is cheaper than any hashing of the board.
 */

/** n! for n = 0..12 (12! < 2^32 keeps every rank a small integer). */
export const FACTORIAL: readonly number[] = (() => {
  const f = [1];
  for (let i = 1; i <= 12; i++) f.push(f[i - 1] * i);
  return f;
})();

/** Rank of `perm` (a permutation of 0..n−1) in lexicographic order, 0 ≤ rank < n!. */
export function rankPerm(perm: Uint8Array, n: number): number {
  let r = 0;
  for (let i = 0; i < n; i++) {
    const v = perm[i];
    let smaller = 0;
    for (let j = i + 1; j < n; j++) if (perm[j] < v) smaller++;
    // Horner form of Σ L[i]·(n−1−i)!: no factorial table lookups in the hot loop.
    r = r * (n - i) + smaller;
  }
  return r;
}

/** Writes the permutation of rank `rank` into `out` (length ≥ n); `used` is scratch of length ≥ n. */
export function unrankPerm(rank: number, n: number, out: Uint8Array, used: Uint8Array): void {
  used.fill(0, 0, n);
  let r = rank;
  for (let i = 0; i < n; i++) {
    const f = FACTORIAL[n - 1 - i];
    let k = Math.floor(r / f);
    r -= k * f;
    // The k-th smallest value not used yet.
    let v = 0;
    for (;; v++) {
      if (used[v]) continue;
      if (k === 0) break;
      k--;
    }
    used[v] = 1;
    out[i] = v;
  }
}
