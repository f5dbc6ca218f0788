import { describe, expect, it } from 'vitest';
import { hanoiDistance, hanoiTowerDistance } from '../../src/puzzles/hanoi/distance.ts';

/** State <-> base-3 integer, disc 0 (smallest) least significant. */
function decode(x: number, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) {
    s += 'ABC'[x % 3];
    x = Math.floor(x / 3);
  }
  return s;
}

/** Independent oracle: breadth-first search over the whole 3^n state graph from `goal`. */
function bfsFrom(goal: number, n: number): Int32Array {
  const size = 3 ** n;
  const dist = new Int32Array(size).fill(-1);
  const queue = new Int32Array(size);
  let head = 0;
  let tail = 0;
  dist[goal] = 0;
  queue[tail++] = goal;
  const top = [0, 0, 0];
  while (head < tail) {
    const x = queue[head++];
    top[0] = top[1] = top[2] = n;
    let y = x;
    for (let d = 0; d < n; d++) {
      const p = y % 3;
      if (top[p] === n) top[p] = d;
      y = Math.floor(y / 3);
    }
    for (let f = 0; f < 3; f++) {
      if (top[f] === n) continue;
      for (let t = 0; t < 3; t++) {
        if (t === f || top[t] < top[f]) continue;
        const next = x + (t - f) * 3 ** top[f];
        if (dist[next] < 0) {
          dist[next] = dist[x] + 1;
          queue[tail++] = next;
        }
      }
    }
  }
  return dist;
}

describe('hanoiDistance', () => {
  it('equals the BFS distance for every start/goal pair up to 6 discs', () => {
    for (let n = 1; n <= 6; n++) {
      const size = 3 ** n;
      const names = Array.from({ length: size }, (_, x) => decode(x, n));
      let mismatches = 0;
      let firstMismatch = '';
      for (let g = 0; g < size; g++) {
        const dist = bfsFrom(g, n);
        for (let s = 0; s < size; s++) {
          // The graph is connected, so BFS reaches every state (dist >= 0) and the comparison is total.
          if (hanoiDistance(names[s], names[g]) !== dist[s]) {
            mismatches++;
            firstMismatch ||= `${names[s]} -> ${names[g]}: bfs ${dist[s]}, got ${hanoiDistance(names[s], names[g])}`;
          }
        }
      }
      expect(firstMismatch).toBe('');
      expect(mismatches).toBe(0);
    }
  });

  it('needs the two-moves-of-the-largest-disc case (BBAA -> AABA is 5, not 7)', () => {
    expect(hanoiDistance('BBAA', 'AABA')).toBe(5);
    // The one-move plan alone: gather discs 1-2 on C (3), move disc 3 (1), spread from C (3).
    expect(hanoiTowerDistance('BBAA', 2, 2) + 1 + hanoiTowerDistance('AABA', 2, 2)).toBe(7);
  });

  it('gives 2^n - 1 for a perfect tower to another peg, up to 24 discs', () => {
    for (let n = 1; n <= 24; n++) {
      for (const [a, b] of [['A', 'C'], ['C', 'A'], ['A', 'B'], ['B', 'C'], ['C', 'B'], ['B', 'A']]) {
        expect(hanoiDistance(a.repeat(n), b.repeat(n))).toBe(2 ** n - 1);
      }
    }
  });

  it('is symmetric and zero only on equal states', () => {
    const pairs: [string, string][] = [['ABCABC', 'CBACBA'], ['AAAAAAAAAAAAAAAAAAAAAAAA', 'CCCCCCCCCCCCCCCCCCCCCCCB'], ['B', 'B']];
    for (const [s, g] of pairs) {
      expect(hanoiDistance(s, g)).toBe(hanoiDistance(g, s));
      expect(hanoiDistance(s, g) === 0).toBe(s === g);
    }
  });
});
