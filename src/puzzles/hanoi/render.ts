import type { HanoiState } from '../../core/types.ts';
import { padLines, RENDER_HEIGHT, RENDER_WIDTH, type RenderOptions } from '../render-grid.ts';

const PEGS = 'ABC';

/** Discs of each peg, bottom (largest) first, 1-based. */
function stacksOf(cfg: string): number[][] {
  const stacks: number[][] = [[], [], []];
  for (let d = cfg.length - 1; d >= 0; d--) stacks[cfg.charCodeAt(d) - 65].push(d + 1);
  return stacks;
}

/**
 * The three pegs of the current position (`state.start`) with the discs drawn to scale, disc d as 2d+1
 * characters, the disc the last move carried drawn with '#'; the goal as a line of peg letters below.
 * When the tower does not fit the picture (more than about a dozen discs on 80 columns), each peg becomes
 * one line listing its discs bottom to top.
 */
export function renderHanoi(state: HanoiState, opts: RenderOptions<HanoiState> = {}): string[] {
  const width = opts.width ?? RENDER_WIDTH;
  const height = opts.height ?? RENDER_HEIGHT;
  const n = state.start.length;
  const prev = opts.previous?.start;
  let moved = 0;
  if (prev !== undefined) for (let d = 0; d < n && moved === 0; d++) if (prev[d] !== state.start[d]) moved = d + 1;
  const stacks = stacksOf(state.start);
  const goal = `goal ${state.goal}`;
  const pegWidth = 2 * n + 3;
  if (3 * pegWidth <= width && n + 2 <= height) {
    const lines: string[] = [];
    for (let level = n - 1; level >= 0; level--) {
      let line = '';
      for (const stack of stacks) {
        const d = stack[level];
        const body = d === undefined ? '|' : `(${(d === moved ? '#' : '=').repeat(2 * d - 1)})`;
        const left = Math.floor((pegWidth - body.length) / 2);
        line += ' '.repeat(left) + body + ' '.repeat(pegWidth - left - body.length);
      }
      lines.push(line);
    }
    lines.push([...PEGS].map((p) => p.padStart(Math.floor(pegWidth / 2) + 1).padEnd(pegWidth)).join(''));
    lines.push(goal.length > width ? goal.slice(0, width - 1) + '…' : goal);
    return padLines(lines);
  }
  const lines = stacks.map((stack, p) => {
    const discs = stack.map((d) => (d === moved ? `[${d}]` : String(d))).join(' ');
    const line = `${PEGS[p]}: ${discs || '-'}`;
    return line.length > width ? line.slice(0, width - 1) + '…' : line;
  });
  lines.push(goal.length > width ? goal.slice(0, width - 1) + '…' : goal);
  return padLines(lines);
}
