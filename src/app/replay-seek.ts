import type { PuzzleState, ReplayOutcome, Result, WireMoves } from '../core/types.ts';
import { scrambleIndexOf } from '../core/scramble-number.ts';
import { reject } from '../core/types.ts';
import type { Verdict } from '../core/verdict.ts';
import { puzzleOf } from '../puzzles/index.ts';
import type { Scene } from '../puzzles/scene.ts';
import type { AppContext } from './context.ts';

/** A position of a stored answer, as a viewer draws it. */
export interface SeekFrame {
  /** Moves applied before this position (0 = the scramble). */
  readonly index: number;
  readonly scene: Scene;
  readonly state: PuzzleState;
}

/** What a replay is of, and how its stored moves replay today. */
export interface ReplayInfo {
  readonly match: number;
  readonly scramble: number;
  readonly bot: string;
  readonly puzzleClass: string;
  /** The verdict recorded when the answer was played. */
  readonly verdict: Verdict;
  /** The move count recorded when it was played. */
  readonly recordedMoves: number;
  /** Moves that replay legally now (the last position a viewer can seek to). */
  readonly legalMoves: number;
  /** The puzzle core's verdict on the stored moves now: a tampered answer shows here. */
  readonly outcome: ReplayOutcome;
}

/** A stored answer opened for seeking. */
export interface ReplayHandle {
  readonly info: ReplayInfo;
  /** The position after `index` moves (clamped to 0 … legalMoves). */
  seek(index: number): SeekFrame;
}

interface Checkpoint {
  readonly index: number;
  /** Where the move after `index` starts in the stored moves (characters, or pairs). */
  readonly offset: number;
  readonly state: PuzzleState;
}

/** Checkpoints per answer: a seek replays at most total/CHECKPOINTS moves from the nearest one. */
const CHECKPOINTS = 256;
/** Snapshot size per answer at most (as JSON text), so a 1000×1000 board keeps a few, not 256 copies. */
const SNAPSHOT_CHARS = 48_000_000;

/**
 * Pushes moves[from…] into `replayer` until it has applied `want` more moves (or the moves end or fail);
 * returns the offset reached. Text moves are at least one character each, so a slice as long as the moves
 * still wanted never overshoots; the walk converges in a few pushes whatever the notation.
 */
function advance(replayer: { push(c: WireMoves): unknown; readonly count: number }, moves: WireMoves, from: number, want: number): number {
  const target = replayer.count + want;
  let at = from;
  while (at < moves.length && replayer.count < target) {
    const end = Math.min(moves.length, at + (target - replayer.count));
    const before = replayer.count;
    const bad = replayer.push(moves.slice(at, end) as WireMoves);
    at = end;
    if (bad) break;
    if (replayer.count === before && typeof moves !== 'string') break;
  }
  return at;
}

/**
 * Opens a stored answer: replays it once with the puzzle's own validator (so tampered moves are caught),
 * keeping a snapshot every total/256 moves, so any later seek replays a bounded slice. A 16,777,215-move
 * Hanoi answer costs one validation pass to open, then about 65,000 moves per seek.
 */
export function openStoredAnswer(
  start: PuzzleState,
  moves: WireMoves,
  meta: Omit<ReplayInfo, 'legalMoves' | 'outcome'>,
): ReplayHandle {
  const puzzle = puzzleOf(start);
  const replayer = puzzle.replayer(start);
  const points = Math.max(1, Math.min(CHECKPOINTS, Math.floor(SNAPSHOT_CHARS / JSON.stringify(start).length)));
  const step = Math.max(1, Math.ceil(Math.max(1, meta.recordedMoves) / points));
  const checkpoints: Checkpoint[] = [{ index: 0, offset: 0, state: start }];
  let offset = 0;
  for (;;) {
    const before = replayer.count;
    offset = advance(replayer, moves, offset, step);
    if (replayer.count === before || offset >= moves.length) break;
    checkpoints.push({ index: replayer.count, offset, state: replayer.state() });
  }
  const outcome = replayer.finish();
  const legalMoves = replayer.count;
  const info: ReplayInfo = { ...meta, legalMoves, outcome };
  return {
    info,
    seek(index: number): SeekFrame {
      const k = Math.max(0, Math.min(legalMoves, Math.floor(index)));
      let lo = 0;
      let hi = checkpoints.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (checkpoints[mid].index <= k) lo = mid;
        else hi = mid - 1;
      }
      const cp = checkpoints[lo];
      const r = puzzle.replayer(cp.state as never);
      if (k > cp.index) advance(r, moves, cp.offset, k - cp.index);
      const state = k === cp.index ? cp.state : r.state();
      return { index: k, state, scene: puzzle.scene(state as never) };
    },
  };
}

/** Keeps the last few opened answers, so stepping through one does not reload it from the database. */
export class ReplayCache {
  private readonly entries = new Map<string, Promise<Result<ReplayHandle>>>();
  constructor(private readonly size = 6) {}

  /** The answer of `bot` to scramble number `scramble` (from 1, as in replay URLs) of match `match`. */
  open(ctx: AppContext, match: number, scramble: number, bot: string): Promise<Result<ReplayHandle>> {
    const key = `${match}\u0000${scramble}\u0000${bot}`;
    let got = this.entries.get(key);
    if (got) {
      this.entries.delete(key);
      this.entries.set(key, got);
      return got;
    }
    got = loadAnswer(ctx, match, scramble, bot);
    this.entries.set(key, got);
    // A failed open (unknown id) is not worth keeping; a finished one stays until pushed out.
    void got.then((r) => {
      if (!r.ok) this.entries.delete(key);
    });
    while (this.entries.size > this.size) this.entries.delete(this.entries.keys().next().value!);
    return got;
  }
}

/** Loads one stored answer and opens it for seeking; a clear rejection for every unknown part. */
export async function loadAnswer(ctx: AppContext, match: number, scramble: number, bot: string): Promise<Result<ReplayHandle>> {
  const m = await ctx.store.getMatch(match);
  if (!m) return reject('no-match', `no match with id ${match}`);
  if (!m.bots.includes(bot)) return reject('no-bot', `bot ${bot} is not in match ${match} (${m.bots.join(', ')})`);
  const scrambles = await ctx.store.listScrambles(match);
  const s = scrambles.find((x) => x.index === scrambleIndexOf(scramble));
  if (!s) return reject('no-scramble', `match ${match} has scrambles 1 to ${scrambles.length}, not ${scramble}`);
  const row = (await ctx.store.listResults(match)).find((r) => r.scrambleId === s.id && r.bot === bot);
  if (!row) return reject('no-result', `${bot} has no result yet for scramble ${scramble} of match ${match}`);
  return {
    ok: true,
    value: openStoredAnswer(s.state, row.moves, {
      match,
      scramble,
      bot,
      puzzleClass: s.puzzleClass,
      verdict: row.verdict,
      recordedMoves: row.moveCount,
    }),
  };
}
