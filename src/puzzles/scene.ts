/**
 * A neutral picture of a position for drawing programs (the web replay): a kind describes what it looks
 * like, so a viewer draws grids and pegs without knowing which puzzle it shows.
 */

/** How a grid cell is shaded. */
export const TONE = {
  /** An empty cell a tile can move into (the sliding blank, an empty warehouse cell inside a block). */
  empty: 0,
  /** A piece away from its home cell. */
  away: 1,
  /** A piece on its home cell. */
  home: 2,
  /** An empty corridor cell (the warehouse's lanes between blocks). */
  lane: 3,
} as const;

/** A board of cells: labels row-major (0 = no label), one tone per cell. */
export interface GridScene {
  readonly layout: 'grid';
  readonly rows: number;
  readonly cols: number;
  readonly labels: readonly number[];
  readonly tones: readonly number[];
}

/** Pegs with discs: disc sizes per peg, bottom first; `goal` names each disc's goal peg. */
export interface PegScene {
  readonly layout: 'pegs';
  readonly pegs: readonly string[];
  readonly discs: number;
  readonly stacks: readonly (readonly number[])[];
  readonly goal: string;
}

/** What a viewer draws. */
export type Scene = GridScene | PegScene;

/** A grid scene of labelled pieces, each toned by whether it is home (`home[i]` = the label that belongs at i). */
export function piecesScene(rows: number, cols: number, labels: ArrayLike<number>, home: (i: number) => number, emptyTone: (i: number) => number): GridScene {
  const n = rows * cols;
  const l = new Array<number>(n);
  const t = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const v = labels[i];
    l[i] = v;
    t[i] = v === 0 ? emptyTone(i) : v === home(i) ? TONE.home : TONE.away;
  }
  return { layout: 'grid', rows, cols, labels: l, tones: t };
}
