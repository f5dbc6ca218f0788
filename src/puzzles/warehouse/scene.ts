import type { WarehouseState } from '../../core/types.ts';
import { piecesScene, TONE, type Scene } from '../scene.ts';
import { warehouseLayout } from './layout.ts';

/** The floor as a grid: tiles toned by whether they sit on their home cell, empty corridors as lanes. */
export function warehouseScene(s: WarehouseState): Scene {
  const n = s.size;
  const { corridorLine, goalCells } = warehouseLayout(n);
  const lane = (i: number) => (corridorLine[Math.floor(i / n)] || corridorLine[i % n] ? TONE.lane : TONE.empty);
  return piecesScene(n, n, s.cells, (i) => goalCells[i], lane);
}
