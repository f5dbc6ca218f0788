import type { SwapsState } from '../../core/types.ts';
import { drawGrid, type RenderOptions } from '../render-grid.ts';

/** The pieces as a grid of numbers; the two the last swap exchanged in brackets. */
export function renderSwaps(state: SwapsState, opts: RenderOptions<SwapsState> = {}): string[] {
  const { rows, cols, tiles } = state;
  const prev = opts.previous?.tiles;
  return drawGrid(
    {
      rows,
      cols,
      labelWidth: String(rows * cols).length,
      label: (i) => String(tiles[i]),
      marked: (i) => prev !== undefined && prev[i] !== tiles[i],
    },
    opts.width,
    opts.height,
  );
}
