import type { HanoiState } from '../../core/types.ts';

/** Discs of each peg, bottom (largest) first, as 1-based disc numbers. */
function stacksOf(cfg: string): number[][] {
  const stacks: number[][] = [[], [], []];
  for (let d = cfg.length - 1; d >= 0; d--) stacks[cfg.charCodeAt(d) - 65].push(d + 1);
  return stacks;
}

/** Draws one configuration as three vertical pegs, `height` rows plus a base line with the peg letters. */
function drawPegs(cfg: string, height: number, width: number): string[] {
  const stacks = stacksOf(cfg);
  const cell = (text: string): string => text.padStart(width, ' ') + ' ';
  const lines: string[] = [];
  for (let level = height - 1; level >= 0; level--) {
    let line = '';
    for (const stack of stacks) line += cell(level < stack.length ? String(stack[level]) : '|');
    lines.push(line);
  }
  lines.push(['A', 'B', 'C'].map((p) => cell(p)).join(''));
  return lines;
}

/**
 * A multi-line picture of a Hanoi state: the start pegs and the goal pegs side by side, each disc drawn as
 * its number (1 = smallest), empty levels as '|'.
 */
export function describeHanoi(state: HanoiState): string {
  const n = state.start.length;
  const width = String(n).length + 1;
  const tallest = (cfg: string): number => Math.max(...stacksOf(cfg).map((s) => s.length));
  const height = Math.max(tallest(state.start), tallest(state.goal));
  const left = drawPegs(state.start, height, width);
  const right = drawPegs(state.goal, height, width);
  const leftWidth = 3 * (width + 1);
  const out = [`${'start ' + state.start}`.padEnd(leftWidth, ' ') + '   goal ' + state.goal];
  for (let i = 0; i < left.length; i++) out.push(left[i].padEnd(leftWidth, ' ') + '   ' + right[i]);
  return out.map((l) => l.trimEnd()).join('\n');
}
