/**
 * Partially orders `idx[0..len)` so that its first `k` entries are the indices of the `k` smallest
 * `key[idx[i]]` (in no particular order): quickselect with a median-of-three pivot, linear on average. The
 * beam uses it to keep the best children of a layer without sorting them all.
 */
export function selectSmallest(idx: Int32Array, key: Float64Array, len: number, k: number): void {
  if (k <= 0 || k >= len) return;
  let lo = 0;
  let hi = len - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const a = key[idx[lo]];
    const b = key[idx[mid]];
    const c = key[idx[hi]];
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (key[idx[i]] < pivot) i++;
      while (key[idx[j]] > pivot) j--;
      if (i <= j) {
        const t = idx[i];
        idx[i] = idx[j];
        idx[j] = t;
        i++;
        j--;
      }
    }
    if (k - 1 <= j) hi = j;
    else if (k - 1 >= i) lo = i;
    else return;
  }
}
