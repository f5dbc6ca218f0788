import type { SlidingState } from '../../core/types.ts';
import { piecesScene, TONE, type Scene } from '../scene.ts';

/** The board as a grid: tile i + 1 belongs at cell i, the blank last. */
export function slidingScene(s: SlidingState): Scene {
  const last = s.rows * s.cols - 1;
  return piecesScene(s.rows, s.cols, s.tiles, (i) => (i === last ? 0 : i + 1), () => TONE.empty);
}
