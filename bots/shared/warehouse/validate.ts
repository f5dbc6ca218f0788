/**
 * Checks a warehouse state before solving: the referee validates too, but a bot must never loop or throw on
 * a state it cannot solve, so anything unexpected becomes a give-up reason.
 */
import type { WarehouseState } from '../../../src/core/types.ts';
import { blockSide, isCorridorLine } from './geometry.ts';

/** Undefined when `s` is solvable by the warehouse bots, else why not. */
export function warehouseProblem(s: WarehouseState, maxSize: number): string | undefined {
  const n = s.size;
  const m = blockSide(n);
  if (m === 0) return `size ${n} is not a perfect square ≥ 4`;
  if (n > maxSize) return `size ${n} is above this bot's limit ${maxSize}`;
  if (!Array.isArray(s.cells) || s.cells.length !== n * n) return `expected ${n * n} cells`;
  const tiles = n * n - 2 * n * m + n;
  const seen = new Uint8Array(tiles + 1);
  for (let i = 0; i < n * n; i++) {
    const v = s.cells[i];
    const corridor = isCorridorLine((i / n) | 0, m) || isCorridorLine(i % n, m);
    if (corridor ? v !== 0 : !(Number.isInteger(v) && v >= 1 && v <= tiles && !seen[v])) {
      return `cell ${i} holds ${v}: expected ${corridor ? 'an empty corridor' : 'each tile 1..' + tiles + ' once'}`;
    }
    if (!corridor) seen[v] = 1;
  }
  return undefined;
}
