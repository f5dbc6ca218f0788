/**
 * Binary min-heap of unsigned 32-bit keys in a growable Uint32Array. Dijkstra packs (distance, rank) into one
 * key, so comparing keys orders by distance first and no parallel payload array is needed.
 */
export class Uint32Heap {
  private data: Uint32Array;
  private n = 0;

  constructor(initialCapacity = 1024) {
    this.data = new Uint32Array(Math.max(16, initialCapacity));
  }

  /** Number of keys in the heap. */
  get size(): number {
    return this.n;
  }

  /** Inserts a key (0 ≤ key < 2^32). */
  push(key: number): void {
    if (this.n === this.data.length) {
      const bigger = new Uint32Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    const a = this.data;
    let i = this.n++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (a[p] <= key) break;
      a[i] = a[p];
      i = p;
    }
    a[i] = key;
  }

  /** Removes and returns the smallest key; the heap must not be empty. */
  pop(): number {
    const a = this.data;
    const top = a[0];
    const last = a[--this.n];
    const n = this.n;
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && a[c + 1] < a[c]) c++;
      if (a[c] >= last) break;
      a[i] = a[c];
      i = c;
    }
    a[i] = last;
    return top;
  }
}
