import type { PuzzleState } from '../core/types.ts';
import type { Verdict } from '../core/verdict.ts';
import type { OptimumOracle } from '../solvers/oracle.ts';
import type { NewScramble, ScrambleRecord, Store } from '../store/types.ts';

/** The note a scramble carries while the exact oracle has not answered for it. */
export const ORACLE_PENDING = 'oracle pending';

/** Marks a new scramble for the oracle when the oracle can improve its bound. */
export function markForOracle(s: NewScramble, oracle: OptimumOracle | undefined): NewScramble {
  return oracle && oracle.covers(s.state, s.bound) ? { ...s, boundNote: ORACLE_PENDING } : s;
}

/**
 * The key of a state in the store's cache of exact optima: the same for equal states however their JSON
 * was written (keys sorted at every level), different for different ones.
 */
export function stateKey(state: PuzzleState): string {
  return JSON.stringify(state, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

/** How many pending scrambles past the first one the refiner looks through for one ready to ask about. */
const LOOK_AHEAD = 64;

/** How an exact optimum was learned (absent when the oracle left a bound). */
export type OptimumSource = 'cache' | 'answer at the bound' | 'oracle';

/** Progress of the exact oracle over a match's scrambles. */
export interface BoundEvent {
  readonly scrambleIndex: number;
  /** True when the exact optimum is now known; false when a bound stands (see `note`). */
  readonly exact: boolean;
  readonly note?: string;
  /** Where an exact optimum came from: the store's cache, a bot's answer as short as the bound, or a search. */
  readonly source?: OptimumSource;
  readonly done: number;
  readonly total: number;
}

/** A stored result of a scramble, as the refiner needs it. */
export interface EarlierResult {
  readonly scrambleId: number;
  readonly verdict: Verdict;
  readonly moveCount: number;
}

/** One result as the refiner needs it. */
export interface PlayedResult {
  readonly scramble: ScrambleRecord;
  readonly verdict: Verdict;
  readonly moveCount: number;
}

interface Pending {
  readonly scramble: ScrambleRecord;
  /** Results in so far, and the shortest solved answer among them (the oracle is asked once all are in). */
  played: number;
  shortest?: number;
}

/**
 * Finds the exact optimum of every scramble handed to it that is still marked {@link ORACLE_PENDING}, as
 * cheaply as it can, and stores each the moment it is known: from the store's cache of optima (shared by
 * every match in the database), from a bot's validated answer as short as the bound (then nothing needs
 * searching), or from the oracle, asked once a scramble's plays are in so that it only has to prove that
 * the shortest answer cannot be beaten. Exact optima found go into the cache. One request is with the oracle
 * at a time; a real oracle works only while no timed solve is outstanding (see OptimumOracle.hold).
 *
 * Results scored later read the new bound. An answer cut short (the match stopped and the oracle was
 * closed) leaves the scramble pending, so a resumed match asks again. Scrambles arrive page by page.
 */
export class BoundRefiner {
  private readonly pending = new Map<number, Pending>();
  /** Scramble ids in the order they arrived, for asking in order; those before `cursor` are all settled. */
  private readonly order: number[] = [];
  private cursor = 0;
  private total = 0;
  private done = 0;
  private asking: Promise<void> | undefined;
  private lookups: Promise<void> = Promise.resolve();
  /** After the plays: ask about every pending scramble, whatever its results. */
  private draining = false;
  private closed = false;
  /** An answer came back interrupted: its scramble was no longer pending here, and is still unsettled. */
  private cutShort = false;
  private idle: Array<() => void> = [];

  constructor(
    private readonly store: Pick<Store, 'setScrambleBound' | 'knownOptima' | 'addOptima'>,
    private readonly oracle: OptimumOracle,
    /** Results each scramble gets when every bot has played it (the bots of the match). */
    private readonly playsPerScramble: number,
    private readonly onBound?: (e: BoundEvent) => void,
  ) {}

  /**
   * Takes the page's pending scrambles, with the results they already have (`earlier`: of an earlier run, or
   * of other machines); those whose optimum the cache knows are settled at once.
   */
  add(scrambles: readonly ScrambleRecord[], earlier: readonly EarlierResult[] = []): void {
    const fresh = scrambles.filter((s) => s.boundNote === ORACLE_PENDING && !this.pending.has(s.id));
    if (fresh.length === 0) return;
    this.take(fresh);
    const byId = new Map(fresh.map((s) => [s.id, s]));
    for (const r of earlier) {
      const scramble = byId.get(r.scrambleId);
      if (scramble) this.record({ scramble, verdict: r.verdict, moveCount: r.moveCount });
    }
  }

  /**
   * True when the oracle was closed while answers were due (one was being awaited, or scrambles were still
   * pending): what is pending stays pending (ask again later).
   */
  get interrupted(): boolean {
    return this.cutShort || (this.closed && this.pending.size > 0);
  }

  private take(fresh: readonly ScrambleRecord[]): void {
    for (const s of fresh) {
      this.pending.set(s.id, { scramble: s, played: 0 });
      this.order.push(s.id);
    }
    this.total += fresh.length;
    this.lookups = this.lookups.then(async () => {
      const known = await this.store.knownOptima(fresh.map((s) => stateKey(s.state)));
      for (const s of fresh) {
        const optimal = known.get(stateKey(s.state));
        if (optimal !== undefined && optimal >= s.bound.lowerBound && this.pending.delete(s.id)) await this.settle(s, optimal, 'cache');
      }
      this.next();
    });
  }

  /** A result of the match: a solved answer as short as the bound settles its scramble now. */
  record(r: PlayedResult): void {
    const p = this.pending.get(r.scramble.id);
    if (!p) return;
    p.played++;
    if (r.verdict === 'solved' && (p.shortest === undefined || r.moveCount < p.shortest)) p.shortest = r.moveCount;
    if (p.shortest !== undefined && p.shortest === p.scramble.bound.lowerBound) {
      this.pending.delete(r.scramble.id);
      this.lookups = this.lookups.then(() => this.settle(p.scramble, p.shortest!, 'answer at the bound'));
    }
    this.lookups = this.lookups.then(() => this.next());
  }

  /**
   * The plays are over: asks about what is still pending, and resolves when every answer is stored (or
   * cut short by the oracle's closing).
   */
  async settled(): Promise<void> {
    this.draining = true;
    await this.lookups;
    this.next();
    while (this.asking || this.pending.size > 0) {
      if (this.closed && !this.asking) break;
      await new Promise<void>((resolve) => this.idle.push(resolve));
    }
  }

  /**
   * Nothing more is asked (the oracle was closed, or the match was decided and what it owes is proved from
   * the store instead); what is pending stays pending. An answer being awaited is still stored.
   */
  stop(): void {
    this.closed = true;
    for (const wake of this.idle.splice(0)) wake();
  }

  /** Sends the next ready scramble to the oracle when it has none. */
  private next(): void {
    if (this.asking || this.closed) {
      if (!this.asking) for (const wake of this.idle.splice(0)) wake();
      return;
    }
    while (this.cursor < this.order.length && !this.pending.has(this.order[this.cursor]!)) this.cursor++;
    // Plays go in scramble order, so a ready scramble is near the front: look a window ahead, not at all.
    let id: number | undefined;
    for (let i = this.cursor; i < this.order.length && i < this.cursor + LOOK_AHEAD && id === undefined; i++) {
      const p = this.pending.get(this.order[i]!);
      if (p && (this.draining || p.played >= this.playsPerScramble)) id = p.scramble.id;
    }
    if (id === undefined) {
      for (const wake of this.idle.splice(0)) wake();
      return;
    }
    const p = this.pending.get(id)!;
    this.pending.delete(id);
    this.asking = this.ask(p).finally(() => {
      this.asking = undefined;
      this.next();
    });
  }

  private async ask(p: Pending): Promise<void> {
    const s = p.scramble;
    const got = await this.oracle.improve(s.state, s.bound, p.shortest);
    if (got.interrupted) {
      this.closed = true;
      this.cutShort = true;
      return;
    }
    if (got.bound.optimal !== undefined) return this.settle(s, got.bound.optimal, 'oracle');
    await this.store.setScrambleBound(s.id, got.bound, got.note ?? 'no exact optimum');
    this.done++;
    this.onBound?.({ scrambleIndex: s.index, exact: false, note: got.note ?? 'no exact optimum', done: this.done, total: this.total });
  }

  private async settle(s: ScrambleRecord, optimal: number, source: OptimumSource): Promise<void> {
    await this.store.setScrambleBound(s.id, { optimal, lowerBound: optimal });
    if (source !== 'cache') await this.store.addOptima([{ key: stateKey(s.state), optimal }]);
    this.done++;
    this.onBound?.({ scrambleIndex: s.index, exact: true, source, done: this.done, total: this.total });
  }
}

/**
 * Settles the exact optima of `scrambles` in one go, with the results they have (`earlier`): what a worker
 * does with a queued oracle job, through the same refiner a local match runs beside its plays. `interrupted`
 * when the oracle was closed first (the scrambles left pending are asked about again).
 */
export async function settleOptima(
  store: Pick<Store, 'setScrambleBound' | 'knownOptima' | 'addOptima'>,
  oracle: OptimumOracle,
  scrambles: readonly ScrambleRecord[],
  earlier: readonly EarlierResult[],
  playsPerScramble: number,
  onBound?: (e: BoundEvent) => void,
): Promise<'settled' | 'interrupted'> {
  const refiner = new BoundRefiner(store, oracle, playsPerScramble, onBound);
  refiner.add(scrambles, earlier);
  await refiner.settled();
  return refiner.interrupted ? 'interrupted' : 'settled';
}
