import type { HanoiState } from '../../core/types.ts';
import type { Scene } from '../scene.ts';

const PEGS = ['A', 'B', 'C'];

/** The three pegs, each with its discs (1 = smallest) bottom first. */
export function hanoiScene(s: HanoiState): Scene {
  const stacks: number[][] = [[], [], []];
  for (let d = s.start.length - 1; d >= 0; d--) stacks[s.start.charCodeAt(d) - 65].push(d + 1);
  return { layout: 'pegs', pegs: PEGS, discs: s.start.length, stacks, goal: s.goal };
}
