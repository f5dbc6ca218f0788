import type { SlidingState } from '../../core/types.ts';
import { drawGrid, type RenderOptions } from '../render-grid.ts';

/**
 * The board as a grid of tile numbers, the blank as '.', the tile the last move slid in brackets. Boards
 * larger than the picture show a window that follows the blank.
 */
export function renderSliding(state: SlidingState, opts: RenderOptions<SlidingState> = {}): string[] {
  const { rows, cols, tiles } = state;
  const prev = opts.previous?.tiles;
  return drawGrid(
    {
      rows,
      cols,
      labelWidth: String(rows * cols - 1).length,
      label: (i) => (tiles[i] === 0 ? '.' : String(tiles[i])),
      marked: (i) => prev !== undefined && tiles[i] !== 0 && prev[i] !== tiles[i],
    },
    opts.width,
    opts.height,
  );
}
