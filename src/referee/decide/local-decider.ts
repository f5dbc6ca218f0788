/**
 * The decider of a match played in this process: it follows the SPRT result by result (the test must
 * decide before the next job is handed out), runs the exact oracle beside the players, and once they have
 * ended says how the match ends, after proving the optima it owes. The rules are the queue's too
 * (match-fate.ts): a decided SPRT wants no more plays, and its match is finished once every scramble it
 * played has its optimum; the scrambles nobody played owe nothing.
 */
import type { Verdict } from '../../core/verdict.ts';
import type { OptimumOracle } from '../../solvers/oracle.ts';
import type { SprtProgress } from '../../stats/sprt-progress.ts';
import type { ResultSummary, ScrambleRecord, Store } from '../../store/types.ts';
import type { MatchConfig } from '../match-config.ts';
import { BoundRefiner, type BoundEvent } from '../refine-bounds.ts';
import { SprtWatch } from '../sprt-watch.ts';
import { fateOf } from './match-fate.ts';
import { settleOwedOptima } from './owed-optima.ts';

/** A result as the decider hears of it, the moment it is validated. */
export interface DecidedResult {
  readonly scramble: ScrambleRecord;
  readonly bot: string;
  readonly verdict: Verdict;
  readonly moveCount: number;
  readonly wallMs: number;
  readonly cpuMs?: number;
}

type DeciderStore = Pick<Store, 'listScrambles' | 'listSummaries' | 'setScrambleBound' | 'knownOptima' | 'addOptima'>;

/** The decisions of one match played in this process, from its first page to its ending; see the file header. */
export class LocalDecider {
  private readonly sprt: SprtWatch | undefined;
  /** Works beside the players (never while one is timed); learns from every result, earlier runs' included. */
  private readonly refiner: BoundRefiner | undefined;
  /** Results of an earlier run, by scramble, for the refiner as their pages are read. */
  private readonly earlier = new Map<number, ResultSummary[]>();

  constructor(
    private readonly config: MatchConfig,
    /** The match's results stored before this run (a resume). */
    stored: readonly ResultSummary[],
    private readonly store: DeciderStore,
    private readonly oracle?: OptimumOracle,
    private readonly onBound?: (e: BoundEvent) => void,
  ) {
    this.sprt = config.sprt ? new SprtWatch(config.sprt, config, stored) : undefined;
    this.refiner = oracle ? new BoundRefiner(store, oracle, config.bots.length, onBound) : undefined;
    if (this.refiner) for (const r of stored) this.earlier.set(r.scrambleId, [...(this.earlier.get(r.scrambleId) ?? []), r]);
  }

  /** The SPRT's state, when the match has one. */
  get test(): SprtProgress | undefined {
    return this.sprt?.state;
  }

  /** Whether another play may be handed out: not once the SPRT has decided (plays in flight finish). */
  get wantsPlays(): boolean {
    return !this.sprt?.state.decision;
  }

  /** The next page of scrambles, in index order, as play reaches it. */
  page(page: readonly ScrambleRecord[]): void {
    this.refiner?.add(page, page.flatMap((s) => this.earlier.get(s.id) ?? []));
    this.sprt?.extend(page);
  }

  /** A result, the moment it is validated; returns the SPRT as it then stands. */
  played(r: DecidedResult): SprtProgress | undefined {
    this.refiner?.record(r);
    if (!this.sprt) return undefined;
    const { scramble, bot, verdict, moveCount, wallMs, cpuMs } = r;
    this.sprt.record({ scrambleId: scramble.id, bot, verdict, moveCount, wallMs, ...(cpuMs !== undefined ? { cpuMs } : {}) });
    return this.sprt.state;
  }

  /** The match is stopping: nothing more is asked of the oracle (its owner closes it). */
  stop(): void {
    this.refiner?.stop();
  }

  /**
   * After the players have ended, `done` of `total` plays with a result: proves the optima the match owes
   * (every scramble when all were played; only those played when the SPRT decided) and says how it ends.
   * Finished when decided or complete with every owed optimum proved; interrupted otherwise (stopped with
   * plays or proofs left: a resume does the rest).
   */
  async settle(matchId: number, done: number, total: number, signal: AbortSignal): Promise<'finished' | 'interrupted'> {
    const fate = fateOf(this.sprt?.state, done, total);
    let cut = false;
    if (fate === 'decided' && this.oracle) {
      // The refiner would drain the unplayed scrambles too: it stops after the answer it awaits, and what is
      // owed is proved from the store (a resume's earlier plays included).
      this.refiner?.stop();
      await this.refiner?.settled();
      cut = (await settleOwedOptima(this.store, this.oracle, matchId, this.config.bots.length, signal, this.onBound)) === 'interrupted';
    } else if (this.refiner) {
      await this.refiner.settled();
      cut = this.refiner.interrupted;
    }
    return fate !== 'open' && !cut ? 'finished' : 'interrupted';
  }
}
