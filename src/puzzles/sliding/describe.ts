import type { SlidingState } from '../../core/types.ts';

/** Boards with both sides up to this are drawn whole; larger ones show only their top-left corner. */
export const DESCRIBE_FULL_SIDE = 16;
/** Side of the corner drawn for large boards. */
export const DESCRIBE_CORNER = 10;

/**
 * A readable picture: one line per row, numbers right-aligned to the widest tile, blank as '.'. Boards
 * larger than {@link DESCRIBE_FULL_SIDE} on a side get a header line and only their top-left
 * {@link DESCRIBE_CORNER}×{@link DESCRIBE_CORNER} corner, with '…' marking the cut edges.
 */
export function describeSliding(state: SlidingState): string {
  const { rows, cols, tiles } = state;
  const big = rows > DESCRIBE_FULL_SIDE || cols > DESCRIBE_FULL_SIDE;
  const showRows = big ? Math.min(rows, DESCRIBE_CORNER) : rows;
  const showCols = big ? Math.min(cols, DESCRIBE_CORNER) : cols;
  const width = String(rows * cols - 1).length;
  const lines: string[] = [];
  if (big) lines.push(`${rows}x${cols} board, top-left ${showRows}x${showCols} corner:`);
  for (let r = 0; r < showRows; r++) {
    const cells: string[] = [];
    for (let c = 0; c < showCols; c++) {
      const t = tiles[r * cols + c];
      cells.push((t === 0 ? '.' : String(t)).padStart(width));
    }
    if (showCols < cols) cells.push('…');
    lines.push(cells.join(' '));
  }
  if (showRows < rows) lines.push('…');
  return lines.join('\n');
}
