import type { PuzzleState, ReplayOutcome, WireMoves } from '../core/types.ts';
import { puzzleOf } from '../puzzles/index.ts';

/** One position of a replay. */
export interface ReplayFrame {
  /** Moves applied before this position (0 = the scramble). */
  readonly index: number;
  readonly state: PuzzleState;
  /** The notation of the move that led here, when frames are taken after every move. */
  readonly move?: string;
}

/** How often to take a frame. */
export interface FrameOptions {
  /** A frame after every k-th move (default 1); the start and the last position are always frames. */
  readonly every?: number;
}

/**
 * Replays stored moves from the scramble with the puzzle's own validator and yields the positions on the
 * way: the start, the state after every `every`-th move, and the last position reached (the final state, or
 * the one before the first illegal move). Returns the validator's outcome, so a result whose moves no longer
 * solve the scramble (tampered with, or a validator that changed) is reported, not shown as solved.
 *
 * The moves are fed in pieces that cannot overshoot the next frame: a text move is at least one character,
 * so pushing as many characters as moves remain never completes too many; the last moves before a frame go
 * one character at a time. A 16-million-move answer with `every` in the millions therefore costs about as
 * much as validating it once.
 */
export function* replayFrames(start: PuzzleState, moves: WireMoves, opts: FrameOptions = {}): Generator<ReplayFrame, ReplayOutcome> {
  const every = Math.max(1, Math.floor(opts.every ?? 1));
  const replayer = puzzleOf(start).replayer(start);
  yield { index: 0, state: start };
  const total = moves.length;
  let at = 0;
  let lastEnd = 0;
  let target = every;
  let emitted = 0;
  while (at < total) {
    const room = target - replayer.count;
    const end = Math.min(total, at + Math.max(1, room));
    const piece = typeof moves === 'string' ? moves.slice(at, end) : moves.slice(at, end);
    const before = replayer.count;
    const bad = replayer.push(piece);
    at = end;
    if (bad) break;
    if (replayer.count === before) continue;
    if (replayer.count >= target) {
      const move = every === 1 ? describeMove(moves, lastEnd, at) : undefined;
      emitted = replayer.count;
      yield { index: emitted, state: replayer.state(), ...(move !== undefined ? { move } : {}) };
      target = emitted + every;
    }
    lastEnd = at;
  }
  const outcome = replayer.finish();
  if (replayer.count !== emitted) yield { index: replayer.count, state: replayer.state() };
  return outcome;
}

/** The notation of the single move in moves[from, to): its text, or a swap as "a<->b". */
function describeMove(moves: WireMoves, from: number, to: number): string {
  if (typeof moves === 'string') return moves.slice(from, to).trim();
  const pair = moves[to - 1];
  return `${pair[0]}<->${pair[1]}`;
}

/** Collects every frame and the outcome (for tests and small answers). */
export function allFrames(start: PuzzleState, moves: WireMoves, opts: FrameOptions = {}): { frames: ReplayFrame[]; outcome: ReplayOutcome } {
  const gen = replayFrames(start, moves, opts);
  const frames: ReplayFrame[] = [];
  for (;;) {
    const r = gen.next();
    if (r.done) return { frames, outcome: r.value };
    frames.push(r.value);
  }
}
