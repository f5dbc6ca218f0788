import type { SwapsState } from '../../core/types.ts';
import { piecesScene, TONE, type Scene } from '../scene.ts';

/** The pieces as a grid: piece i + 1 belongs at cell i. */
export function swapsScene(s: SwapsState): Scene {
  return piecesScene(s.rows, s.cols, s.tiles, (i) => i + 1, () => TONE.empty);
}
