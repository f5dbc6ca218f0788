/**
 * A lossy set of 64-bit state hashes (two 32-bit halves) for the beam's duplicate detection: 4-way buckets
 * in one interleaved Uint32Array, so a lookup touches one cache line, and a full bucket forgets its oldest
 * entry. Forgetting is safe: the beam may then revisit an old state, which costs a little work and, should
 * such a state be kept, a loop in the path that cycles.ts cuts out; a set that remembered every state of a
 * 1,000-move search would be far bigger and miss the cache on every probe (measured: the beam ran 2×
 * slower with an exact set, and found the same answers).
 */
export class SeenCache {
  private readonly slots: Uint32Array;
  private readonly mask: number;

  /** `log2Buckets`: the table holds 4·2^log2Buckets keys in 32·2^log2Buckets bytes. */
  constructor(log2Buckets: number) {
    this.slots = new Uint32Array(8 << log2Buckets);
    this.mask = (1 << log2Buckets) - 1;
  }

  /** True when the key was added and not yet forgotten. */
  has(x: number, y: number): boolean {
    if (x === 0 && y === 0) y = 1;
    const s = this.slots;
    const i = ((x >>> 7) & this.mask) << 3;
    return (
      (s[i] === x && s[i + 1] === y) ||
      (s[i + 2] === x && s[i + 3] === y) ||
      (s[i + 4] === x && s[i + 5] === y) ||
      (s[i + 6] === x && s[i + 7] === y)
    );
  }

  /** Adds the key (forgetting the oldest of its bucket); false when it was there already. */
  add(x: number, y: number): boolean {
    if (this.has(x, y)) return false;
    if (x === 0 && y === 0) y = 1;
    const s = this.slots;
    const i = ((x >>> 7) & this.mask) << 3;
    s[i + 6] = s[i + 4];
    s[i + 7] = s[i + 5];
    s[i + 4] = s[i + 2];
    s[i + 5] = s[i + 3];
    s[i + 2] = s[i];
    s[i + 3] = s[i + 1];
    s[i] = x;
    s[i + 1] = y;
    return true;
  }
}
