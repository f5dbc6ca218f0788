/**
 * Feeds a stored answer, piece by piece as a store streams it (Store.readMoves), into a puzzle's replayer
 * in slices that never overshoot a wanted move count: a text move is at least one character, so pushing as
 * many characters as moves remain never completes too many, and the last moves go one character at a time.
 * Replays, exports and the web's seeking all walk answers this way, so none holds a whole answer: at most
 * one piece (a block of at most 1 MiB) beside the replayer's state.
 */
import type { WireMoves } from '../../core/types.ts';
import type { Replayer } from '../../puzzles/puzzle.ts';

/** Where a reader stands in a stored answer: the piece (as Store.readMoves counts them) and the offset in it. */
export interface MovePosition {
  readonly piece: number;
  readonly offset: number;
}

/** Why {@link MoveFeeder.to} stopped short of its target. */
export type FeedStop = 'reached' | 'need-piece' | 'illegal';

/** A replayer and the piece being fed into it. */
export class MoveFeeder {
  private piece: WireMoves | undefined;
  private pieceNo: number;
  private at = 0;
  private skip: number;
  /** Text of the move under way that began in an earlier piece (a two-letter Hanoi move split by a block). */
  private carry = '';
  private moveStart = 0;
  /** The notation of the last move applied ("AC", "3<->7"), when asked for. */
  lastMove: string | undefined;
  illegal = false;

  /** @param from where the first piece handed in starts (a checkpoint's position; default the beginning) */
  constructor(
    readonly replayer: Replayer,
    private readonly describe = false,
    from: MovePosition = { piece: 0, offset: 0 },
  ) {
    this.pieceNo = from.piece - 1;
    this.skip = from.offset;
  }

  /** Takes the next piece of the answer (after {@link to} said it needs one). */
  give(piece: WireMoves): void {
    if (this.describe && typeof this.piece === 'string') this.carry += this.piece.slice(this.moveStart);
    this.piece = piece;
    this.pieceNo++;
    this.at = Math.min(this.skip, piece.length);
    this.skip = 0;
    this.moveStart = this.at;
  }

  /** Applies moves of the current piece until the replayer has applied `target` in all. */
  to(target: number): FeedStop {
    const r = this.replayer;
    while (r.count < target) {
      if (this.illegal) return 'illegal';
      const p = this.piece;
      if (p === undefined || this.at >= p.length) return 'need-piece';
      const before = r.count;
      const end = Math.min(p.length, this.at + Math.max(1, target - before));
      const bad = r.push(p.slice(this.at, end) as WireMoves);
      this.at = end;
      if (bad) {
        this.illegal = true;
        return 'illegal';
      }
      if (r.count !== before) {
        if (this.describe) this.lastMove = typeof p === 'string' ? (this.carry + p.slice(this.moveStart, end)).trim() : `${p[end - 1][0]}<->${p[end - 1][1]}`;
        this.carry = '';
        this.moveStart = end;
      }
    }
    return 'reached';
  }

  /** Where the next move starts. */
  position(): MovePosition {
    return { piece: Math.max(0, this.pieceNo), offset: this.at };
  }
}

/** Feeds `pieces` into `feeder` until its replayer has applied `target` moves, the moves end, or one is illegal. */
export async function feedTo(feeder: MoveFeeder, pieces: AsyncIterator<WireMoves>, target: number): Promise<FeedStop | 'end'> {
  for (;;) {
    const stop = feeder.to(target);
    if (stop !== 'need-piece') return stop;
    const next = await pieces.next();
    if (next.done) return 'end';
    feeder.give(next.value);
  }
}
