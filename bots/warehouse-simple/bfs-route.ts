/**
 * Breadth-first search over the empty corridor cells: the baseline does not assume anything about the
 * corridor layout, it just finds a shortest free path for the carried tile.
 */
import type { Floor } from '../shared/warehouse/floor.ts';

/** Reusable BFS buffers for one board size. */
export class CorridorBfs {
  private readonly prev: Int32Array;
  private readonly seen: Uint32Array;
  private readonly queue: Int32Array;
  private stamp = 0;

  constructor(
    private readonly n: number,
    private readonly corridor: Uint8Array,
  ) {
    this.prev = new Int32Array(n * n);
    this.seen = new Uint32Array(n * n);
    this.queue = new Int32Array(n * n);
  }

  /** Moves the tile on `a` to `b` along a shortest path of empty corridor cells. Throws if there is none. */
  carry(floor: Floor, a: number, b: number): void {
    if (a === b) return;
    const { n, prev, seen, queue } = this;
    const stamp = ++this.stamp;
    seen[a] = stamp;
    let head = 0, tail = 0;
    queue[tail++] = a;
    while (head < tail && seen[b] !== stamp) {
      const c = queue[head++];
      const r = (c / n) | 0, col = c % n;
      const next = [r > 0 ? c - n : -1, r < n - 1 ? c + n : -1, col > 0 ? c - 1 : -1, col < n - 1 ? c + 1 : -1];
      for (const x of next) {
        if (x < 0 || seen[x] === stamp || !this.corridor[x] || floor.cells[x] !== 0) continue;
        seen[x] = stamp;
        prev[x] = c;
        queue[tail++] = x;
      }
    }
    if (seen[b] !== stamp) throw new Error(`bfs: no free corridor path ${a}→${b}`);
    const path: number[] = [];
    for (let c = b; c !== a; c = prev[c]) path.push(c);
    for (let i = path.length - 1, cur = a; i >= 0; cur = path[i--]) floor.step(cur, path[i]);
  }
}
