import type { WarehouseState } from '../../core/types.ts';
import { drawGrid, type RenderOptions } from '../render-grid.ts';
import { warehouseLayout } from './layout.ts';

/**
 * The warehouse as a grid: tile numbers, an empty corridor cell as '·', an empty cell inside a block as
 * '_' (so the blocks stand out between the corridors), the tile the last move stepped in brackets.
 */
export function renderWarehouse(state: WarehouseState, opts: RenderOptions<WarehouseState> = {}): string[] {
  const n = state.size;
  const { corridorLine, tiles } = warehouseLayout(n);
  const cells = state.cells;
  const prev = opts.previous?.cells;
  return drawGrid(
    {
      rows: n,
      cols: n,
      labelWidth: String(tiles).length,
      label: (i) => (cells[i] !== 0 ? String(cells[i]) : corridorLine[Math.floor(i / n)] || corridorLine[i % n] ? '·' : '_'),
      marked: (i) => prev !== undefined && cells[i] !== 0 && prev[i] !== cells[i],
    },
    opts.width,
    opts.height,
  );
}
