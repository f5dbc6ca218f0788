import type { OptimumOracle } from '../solvers/oracle.ts';
import type { NewScramble, ScrambleRecord, Store } from '../store/types.ts';

/** The note a scramble carries while the exact oracle has not answered for it. */
export const ORACLE_PENDING = 'oracle pending';

/** Marks a new scramble for the oracle when the oracle can improve its bound. */
export function markForOracle(s: NewScramble, oracle: OptimumOracle | undefined): NewScramble {
  return oracle && oracle.covers(s.state, s.bound) ? { ...s, boundNote: ORACLE_PENDING } : s;
}

/** Progress of the exact oracle over a match's scrambles. */
export interface BoundEvent {
  readonly scrambleIndex: number;
  /** True when the exact optimum is now known; false when a bound stands (see `note`). */
  readonly exact: boolean;
  readonly note?: string;
  readonly done: number;
  readonly total: number;
}

/**
 * Asks the oracle about every scramble handed to it that is still marked {@link ORACLE_PENDING}, and stores
 * each answer the moment it arrives: the exact optimum (note cleared), or the bound with the oracle's reason.
 * Results scored later read the new bound, so an answer that came in before its optimum is scored against
 * the optimum once known. An answer cut short (the match stopped and the oracle was closed) leaves the
 * scramble pending, so a resumed match asks again. Scrambles arrive page by page as play reaches them.
 */
export class BoundRefiner {
  private readonly answers: Promise<void>[] = [];
  private pending = 0;
  private done = 0;

  constructor(
    private readonly store: Pick<Store, 'setScrambleBound'>,
    private readonly oracle: OptimumOracle,
    private readonly onBound?: (e: BoundEvent) => void,
  ) {}

  /** Sends the page's pending scrambles to the oracle, which answers them in order on its own thread. */
  add(scrambles: readonly ScrambleRecord[]): void {
    for (const s of scrambles) {
      if (s.boundNote !== ORACLE_PENDING) continue;
      this.pending++;
      this.answers.push(this.ask(s));
    }
  }

  /** Resolves when every answer asked for so far is stored (or cut short). */
  async settled(): Promise<void> {
    await Promise.all(this.answers);
  }

  private async ask(s: ScrambleRecord): Promise<void> {
    const got = await this.oracle.improve(s.state, s.bound);
    if (got.interrupted) return;
    await this.store.setScrambleBound(s.id, got.bound, got.bound.optimal === undefined ? (got.note ?? 'no exact optimum') : undefined);
    this.done++;
    const note = got.note ? { note: got.note } : {};
    this.onBound?.({ scrambleIndex: s.index, exact: got.bound.optimal !== undefined, ...note, done: this.done, total: this.pending });
  }
}
