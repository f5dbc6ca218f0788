/**
 * Seed 003's file formats. Input: one line per board row, entries separated by spaces, `X` for the blank
 * (`4 1 3` / `7 X 6` / `5 2 8`); `0` is accepted for the blank too, since the seed's own trace prints it so.
 * Output: the number of moves on the first line, then one blank move per line in Spanish.
 *
 * The seed's printed example output lists only 7 moves under its "8": the final `Derecha` was lost in the
 * text version (the 7 listed moves leave the blank one cell left of home). Ours writes all 8.
 */
import type { Result } from '../../src/core/types.ts';
import { ok, reject } from '../../src/core/types.ts';

/** Spanish move names by blank move letter (Arriba = up, Abajo = down, Izquierda = left, Derecha = right). */
export const SPANISH_MOVES: Readonly<Record<string, string>> = { U: 'Arriba', D: 'Abajo', L: 'Izquierda', R: 'Derecha' };

/** A parsed board: rows × cols, tiles row-major with 0 for the blank. */
export interface BoardFile {
  readonly rows: number;
  readonly cols: number;
  readonly tiles: number[];
}

/** Parses the seed's input text; rejections carry a one-line reason naming the line at fault. */
export function parseBoardFile(text: string, maxCells = 9): Result<BoardFile> {
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  if (lines.length === 0) return reject('empty', 'the file is empty; expected one line per board row, e.g. "4 1 3"');
  const rows: string[][] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] === '') return reject('blank-line', `line ${i + 1} is empty; expected a board row such as "4 1 3"`);
    rows.push(lines[i].split(/\s+/));
  }
  const cols = rows[0].length;
  for (let i = 1; i < rows.length; i++) {
    if (rows[i].length !== cols) {
      return reject('ragged', `line ${i + 1} has ${rows[i].length} entries, line 1 has ${cols}; every row needs the same count`);
    }
  }
  const n = rows.length * cols;
  if (n < 2 || n > maxCells) return reject('size', `board is ${rows.length}x${cols}; this solver takes 2 to ${maxCells} cells (3 lines of 3)`);
  const tiles: number[] = [];
  const seenAt = new Map<number, number>();
  for (let i = 0; i < rows.length; i++) {
    for (const token of rows[i]) {
      let v: number;
      if (/^[xX0]$/.test(token)) v = 0;
      else if (/^[1-9][0-9]*$/.test(token) && Number(token) < n) v = Number(token);
      else return reject('bad-entry', `line ${i + 1}: "${token}" is not a tile; expected 1..${n - 1} or X for the blank`);
      const prev = seenAt.get(v);
      if (prev !== undefined) {
        const what = v === 0 ? 'the blank (X)' : `tile ${v}`;
        return reject('duplicate', `line ${i + 1}: ${what} appears twice (first on line ${prev})`);
      }
      seenAt.set(v, i + 1);
      tiles.push(v);
    }
  }
  // n distinct values from 0..n−1 are all of them, so nothing can be missing at this point.
  return ok({ rows: rows.length, cols, tiles });
}

/** Formats a solution as the seed's output file: the count, then one Spanish move per line. */
export function formatSolutionFile(moves: string): string {
  const lines = [String(moves.length)];
  for (const m of moves) lines.push(SPANISH_MOVES[m]);
  return `${lines.join('\n')}\n`;
}

/**
 * One node in seed 003's printCurrent() style: moves made so far, the blank-included Manhattan distance,
 * then the board with " |" between cells and X for the blank.
 */
export function formatTraceNode(moves: number, manhattan: number, board: ArrayLike<number>, cols: number): string {
  const out = [`Movimientos realizados: ${moves} Distancia manhattan: ${manhattan}`];
  for (let r = 0; r * cols < board.length; r++) {
    const cells: string[] = [];
    for (let c = 0; c < cols; c++) {
      const v = board[r * cols + c];
      cells.push(v === 0 ? 'X' : String(v));
    }
    out.push(cells.join(' |'));
  }
  return `${out.join('\n')}\n`;
}
