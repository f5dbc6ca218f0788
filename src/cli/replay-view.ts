import type { ReplayFrame } from '../app/records/replay.ts';
import type { PuzzleState } from '../core/types.ts';
import { puzzles } from '../puzzles/index.ts';

/** One bot's side of a replay on screen: its name, answer length and the frame shown. */
export interface Side {
  readonly bot: string;
  readonly total: number;
  readonly frame: ReplayFrame;
  /** The frame shown before this one, so the board marks what changed. */
  readonly previous?: ReplayFrame;
  /** True once this bot's replay has no more frames. */
  readonly done: boolean;
}

/** "ida-star · move 12/52 (U)", "ida-star · start", "ida-star · end after 52 moves". */
export function sideTitle(s: Side): string {
  const i = s.frame.index;
  if (i === 0 && !s.done) return `${s.bot} · start (${s.total} moves)`;
  if (s.done) return `${s.bot} · end after ${i} moves`;
  return `${s.bot} · move ${i}/${s.total}${s.frame.move ? ` (${s.frame.move})` : ''}`;
}

/** The picture of one side: the title over the board, within `width` × `height`. */
export function drawSide(s: Side, width: number, height: number): string[] {
  const state = s.frame.state;
  const board = puzzles[state.kind].render(state as never, {
    width,
    height: Math.max(3, height - 1),
    // Mark the change only between neighbouring positions; across a jump everything would light up.
    ...(s.previous && s.frame.index - s.previous.index === 1 ? { previous: s.previous.state as never } : {}),
  });
  return [sideTitle(s).slice(0, width), ...board];
}

/** Sets pictures next to each other, `gap` spaces apart, each padded to its widest line. */
export function sideBySide(pictures: readonly (readonly string[])[], gap = 4): string[] {
  const widths = pictures.map((p) => Math.max(0, ...p.map((l) => l.length)));
  const height = Math.max(0, ...pictures.map((p) => p.length));
  const out: string[] = [];
  for (let i = 0; i < height; i++) out.push(pictures.map((p, k) => (p[i] ?? '').padEnd(widths[k])).join(' '.repeat(gap)).trimEnd());
  return out;
}

/** A whole screen: every side next to the others, sharing the terminal's width. */
export function drawScreen(sides: readonly Side[], cols: number, rows: number): string {
  const gap = 4;
  const width = Math.max(12, Math.floor((cols - gap * (sides.length - 1)) / sides.length));
  return sideBySide(sides.map((s) => drawSide(s, width, rows)), gap).join('\n');
}

/** The JSON Lines record of one frame. */
export function frameJson(bot: string, f: ReplayFrame): string {
  return JSON.stringify({ bot, index: f.index, ...(f.move !== undefined ? { move: f.move } : {}), state: f.state satisfies PuzzleState });
}
