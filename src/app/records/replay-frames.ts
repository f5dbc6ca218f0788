import type { PuzzleState, ReplayOutcome, WireMoves } from '../../core/types.ts';
import { puzzleOf } from '../../puzzles/index.ts';
import { MoveFeeder } from './move-feeder.ts';

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

/** Asked of the piece source by {@link frameSteps}: the next piece of the answer, or undefined at its end. */
const NEED_PIECE = Symbol('need a piece');

/**
 * The frames of a replay as a generator that asks for the answer's pieces as it needs them (it yields
 * {@link NEED_PIECE} and is resumed with the next piece), so the same walk serves moves held whole and moves
 * streamed from a store: the start, the state after every `every`-th move, and the last position reached
 * (the final state, or the one before the first illegal move). Returns the validator's outcome.
 */
function* frameSteps(start: PuzzleState, opts: FrameOptions): Generator<ReplayFrame | typeof NEED_PIECE, ReplayOutcome, WireMoves | undefined> {
  const every = Math.max(1, Math.floor(opts.every ?? 1));
  const feeder = new MoveFeeder(puzzleOf(start).replayer(start), every === 1);
  const replayer = feeder.replayer;
  yield { index: 0, state: start };
  let emitted = 0;
  for (;;) {
    const stop = feeder.to(emitted + every);
    if (stop === 'illegal') break;
    if (stop === 'need-piece') {
      const piece = yield NEED_PIECE;
      if (piece === undefined) break;
      feeder.give(piece);
      continue;
    }
    emitted = replayer.count;
    yield { index: emitted, state: replayer.state(), ...(every === 1 && feeder.lastMove !== undefined ? { move: feeder.lastMove } : {}) };
  }
  const outcome = replayer.finish();
  if (replayer.count !== emitted) yield { index: replayer.count, state: replayer.state() };
  return outcome;
}

/**
 * Replays moves held whole from the scramble with the puzzle's own validator and yields the positions on
 * the way (see {@link frameSteps}). A result whose moves no longer solve the scramble (tampered with, or a
 * validator that changed) is reported, not shown as solved. A 16-million-move answer with `every` in the
 * millions costs about as much as validating it once.
 */
export function* replayFrames(start: PuzzleState, moves: WireMoves, opts: FrameOptions = {}): Generator<ReplayFrame, ReplayOutcome> {
  const steps = frameSteps(start, opts);
  let given = false;
  let r = steps.next();
  for (; !r.done; ) {
    if (r.value === NEED_PIECE) {
      r = steps.next(given ? undefined : moves);
      given = true;
    } else {
      yield r.value;
      r = steps.next();
    }
  }
  return r.value;
}

/** {@link replayFrames} over an answer streamed in pieces (Store.readMoves): at most one piece held at a time. */
export async function* streamFrames(start: PuzzleState, pieces: AsyncIterable<WireMoves>, opts: FrameOptions = {}): AsyncGenerator<ReplayFrame, ReplayOutcome> {
  const source = pieces[Symbol.asyncIterator]();
  const steps = frameSteps(start, opts);
  let r = steps.next();
  for (; !r.done; ) {
    if (r.value === NEED_PIECE) {
      const next = await source.next();
      r = steps.next(next.done ? undefined : next.value);
    } else {
      yield r.value;
      r = steps.next();
    }
  }
  return r.value;
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
