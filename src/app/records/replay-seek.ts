import type { PuzzleState, ReplayOutcome, Result, WireMoves } from '../../core/types.ts';
import { scrambleIndexOf } from '../../core/scramble-number.ts';
import { reject } from '../../core/types.ts';
import type { Verdict } from '../../core/verdict.ts';
import { puzzleOf } from '../../puzzles/index.ts';
import type { Scene } from '../../puzzles/scene.ts';
import type { AppContext } from '../context.ts';
import { feedTo, MoveFeeder, type MovePosition } from './move-feeder.ts';

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
  seek(index: number): Promise<SeekFrame>;
}

/** The pieces of one stored answer from piece `from` on (Store.readMoves). */
export type PieceSource = (from: number) => AsyncIterable<WireMoves>;

interface Checkpoint {
  readonly index: number;
  /** Where the move after `index` starts in the stored answer. */
  readonly at: MovePosition;
  readonly state: PuzzleState;
}

/** Checkpoints per answer: a seek replays at most total/CHECKPOINTS moves from the nearest one. */
const CHECKPOINTS = 256;
/** Snapshot size per answer at most (as JSON text), so a 1000×1000 board keeps a few, not 256 copies. */
const SNAPSHOT_CHARS = 48_000_000;

/**
 * Opens a stored answer: replays it once with the puzzle's own validator (so tampered moves are caught) as
 * it streams from the store, keeping a snapshot and the place in the answer every total/256 moves; a later
 * seek reads on from the nearest snapshot's piece (Store.readMoves from a piece), so neither holds the
 * answer. A 16,777,215-move Hanoi answer costs one validation pass to open, then about 65,000 moves (a
 * block or two read again) per seek.
 */
export async function openStoredAnswer(start: PuzzleState, pieces: PieceSource, meta: Omit<ReplayInfo, 'legalMoves' | 'outcome'>): Promise<ReplayHandle> {
  const puzzle = puzzleOf(start);
  const points = Math.max(1, Math.min(CHECKPOINTS, Math.floor(SNAPSHOT_CHARS / JSON.stringify(start).length)));
  const step = Math.max(1, Math.ceil(Math.max(1, meta.recordedMoves) / points));
  const checkpoints: Checkpoint[] = [{ index: 0, at: { piece: 0, offset: 0 }, state: start }];
  const feeder = new MoveFeeder(puzzle.replayer(start));
  const source = pieces(0)[Symbol.asyncIterator]();
  const replayer = feeder.replayer;
  while ((await feedTo(feeder, source, replayer.count + step)) === 'reached') {
    checkpoints.push({ index: replayer.count, at: feeder.position(), state: replayer.state() });
  }
  await source.return?.();
  const outcome = replayer.finish();
  const legalMoves = replayer.count;
  const info: ReplayInfo = { ...meta, legalMoves, outcome };
  return {
    info,
    async seek(index: number): Promise<SeekFrame> {
      const k = Math.max(0, Math.min(legalMoves, Math.floor(index)));
      let lo = 0;
      let hi = checkpoints.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (checkpoints[mid].index <= k) lo = mid;
        else hi = mid - 1;
      }
      const cp = checkpoints[lo];
      let state = cp.state;
      if (k > cp.index) {
        const f = new MoveFeeder(puzzle.replayer(cp.state as never), false, cp.at);
        const from = pieces(cp.at.piece)[Symbol.asyncIterator]();
        await feedTo(f, from, k - cp.index);
        await from.return?.();
        state = f.replayer.state();
      }
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
  const index = scrambleIndexOf(scramble);
  const [s] = await ctx.store.listScrambles(match, { from: index, limit: 1 });
  if (s?.index !== index) {
    const count = (await ctx.store.scrambleClasses(match)).reduce((n, c) => n + c.count, 0);
    return reject('no-scramble', `match ${match} has scrambles 1 to ${count}, not ${scramble}`);
  }
  const row = await ctx.store.getSummary(s.id, bot);
  if (!row) return reject('no-result', `${bot} has no result yet for scramble ${scramble} of match ${match}`);
  return {
    ok: true,
    value: await openStoredAnswer(s.state, (from) => ctx.store.readMoves(s.id, bot, from), {
      match,
      scramble,
      bot,
      puzzleClass: s.puzzleClass,
      verdict: row.verdict,
      recordedMoves: row.moveCount,
    }),
  };
}
