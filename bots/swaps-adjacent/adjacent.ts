/**
 * A deliberately naive swap-puzzle baseline: insertion sort on the row-major order, swapping only pieces
 * that stand next to each other in that order (neighbours in a row, plus the last cell of a row with the
 * first of the next). Each such swap removes exactly one inversion, so it uses exactly inv(π) swaps —
 * up to n(n−1)/2, against the greedy's n − cycles ≤ n − 1.
 */

/** Default largest chunk, in pairs. */
export const DEFAULT_CHUNK_PAIRS = 100_000;

/** Inversions of `a` (pairs i < j with a[i] > a[j]) by merge sort, O(n log n); `a` is not modified. */
export function countInversions(a: ArrayLike<number>): number {
  const n = a.length;
  let src = Float64Array.from(a as ArrayLike<number>);
  let dst = new Float64Array(n);
  let inv = 0;
  // Bottom-up merge sort: no recursion, two buffers swapped per pass.
  for (let width = 1; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) {
        if (src[j] < src[i]) {
          inv += mid - i; // src[j] jumps over every remaining element of the left run
          dst[k++] = src[j++];
        } else dst[k++] = src[i++];
      }
      while (i < mid) dst[k++] = src[i++];
      while (j < hi) dst[k++] = src[j++];
    }
    const t = src;
    src = dst;
    dst = t;
  }
  return inv;
}

/**
 * Yields insertion sort's adjacent swaps as arrays of at most `chunkPairs` [x, y] piece pairs. `tiles`
 * (pieces 1..n) is sorted in place as the generator runs.
 */
export function* adjacentSwapChunks(
  tiles: Uint32Array,
  chunkPairs = DEFAULT_CHUNK_PAIRS,
): Generator<Array<[number, number]>, void, undefined> {
  let chunk: Array<[number, number]> = [];
  for (let i = 1; i < tiles.length; i++) {
    for (let j = i; j > 0 && tiles[j - 1] > tiles[j]; j--) {
      const x = tiles[j];
      const y = tiles[j - 1];
      tiles[j - 1] = x;
      tiles[j] = y;
      chunk.push([x, y]);
      if (chunk.length === chunkPairs) {
        yield chunk;
        chunk = [];
      }
    }
  }
  if (chunk.length > 0) yield chunk;
}
