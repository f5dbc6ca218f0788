/**
 * Terminal pictures of grid boards (sliding, swaps, warehouse), shared by the kinds' renderers: one text
 * cell per board cell, cells a move changed shown in brackets, and a window that follows the action on
 * boards larger than the picture. Pure: lines out, nothing printed.
 */

/** Size limits and highlights of a picture; every field optional. */
export interface RenderOptions<S> {
  /** The position before the last move: what changed since is marked. */
  readonly previous?: S;
  /** Widest picture, characters (default 78). */
  readonly width?: number;
  /** Tallest picture, lines (default 24). */
  readonly height?: number;
}

/** Default picture limits: a classic 80×24 terminal, less a margin. */
export const RENDER_WIDTH = 78;
export const RENDER_HEIGHT = 24;

/** What a grid renderer needs to know about one board. */
export interface GridSpec {
  readonly rows: number;
  readonly cols: number;
  /** The text of cell i (row-major); the widest decides every cell's width. */
  label(i: number): string;
  /** True when cell i changed in the last move. */
  marked(i: number): boolean;
  /** Widest label any cell of this board can have, so the width stays fixed from frame to frame. */
  readonly labelWidth: number;
}

/** First of `span` consecutive indices out of `total` that keeps `focus` in view, as centred as it can. */
function windowStart(total: number, span: number, focus: number): number {
  if (span >= total) return 0;
  const start = focus - Math.floor(span / 2);
  return Math.max(0, Math.min(total - span, start));
}

/**
 * Draws a grid board. Every line has the same width. When the board is larger than `width` × `height`, the
 * first line says which rows and columns are shown and the window is centred on the first marked cell
 * (else the top-left corner), so a replay of a big board follows the moving tile.
 */
export function drawGrid(g: GridSpec, width = RENDER_WIDTH, height = RENDER_HEIGHT): string[] {
  const cellWidth = g.labelWidth + 2;
  const fitCols = Math.max(1, Math.floor(width / cellWidth));
  const cut = g.cols > fitCols || g.rows > height;
  const fitRows = Math.max(1, cut ? height - 1 : height);
  let focus = -1;
  if (cut) {
    for (let i = 0; i < g.rows * g.cols && focus < 0; i++) if (g.marked(i)) focus = i;
  }
  const r0 = windowStart(g.rows, fitRows, focus < 0 ? 0 : Math.floor(focus / g.cols));
  const c0 = windowStart(g.cols, fitCols, focus < 0 ? 0 : focus % g.cols);
  const r1 = Math.min(g.rows, r0 + fitRows);
  const c1 = Math.min(g.cols, c0 + fitCols);
  const lines: string[] = [];
  if (cut) lines.push(`rows ${r0 + 1}-${r1} of ${g.rows}, columns ${c0 + 1}-${c1} of ${g.cols}`);
  for (let r = r0; r < r1; r++) {
    let line = '';
    for (let c = c0; c < c1; c++) {
      const i = r * g.cols + c;
      const text = g.label(i).padStart(g.labelWidth);
      line += g.marked(i) ? `[${text}]` : ` ${text} `;
    }
    lines.push(line);
  }
  return padLines(lines);
}

/** Pads every line to the widest, so pictures can be set side by side. */
export function padLines(lines: readonly string[]): string[] {
  const w = Math.max(0, ...lines.map((l) => l.length));
  return lines.map((l) => l.padEnd(w));
}
