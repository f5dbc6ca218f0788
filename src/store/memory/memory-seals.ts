/**
 * Seals in the in-memory store (see ./seal.ts), kept beside its records the way the SQLite store keeps them
 * in columns, so the Store contract suite checks the same behaviour on every store.
 */
import { randomBytes } from 'node:crypto';
import { countSeal, headSeal, matchCountSeal, matchSeal, removalSeal, resultSeal, scrambleSeal, type MatchSealed, type SealKey } from '../seal.ts';
import type { MatchSeals, ResultRecord, ScrambleRecord, SealMeta, UnsealedCounts } from '../types.ts';

type ResultSeal = MatchSeals['results'][number];
type Removal = MatchSeals['removals'][number];

/** The seal columns of a memory store. */
export class MemorySeals {
  private readonly dbId = randomBytes(16).toString('hex');
  private keyCheck: string | undefined;
  private sealedAfter: SealMeta['sealedAfter'];
  private readonly matches = new Map<number, { seal?: string; seq?: number; sealedResults: number; countSeal?: string }>();
  private readonly scrambles = new Map<number, { stateSha256: string; seal: string }>();
  /** By `${scrambleId}\0${bot}`. */
  private readonly results = new Map<string, ResultSeal>();
  private readonly removals = new Map<number, Removal[]>();
  private nextResultId = 1;
  private lastMatchId = 0;
  private sealedMatches = 0;
  private matchesSeal: string | undefined;
  private preKey: UnsealedCounts | undefined;
  private headSeal: string | undefined;

  meta(): SealMeta {
    return {
      dbId: this.dbId,
      ...(this.keyCheck ? { keyCheck: this.keyCheck } : {}),
      ...(this.sealedAfter ? { sealedAfter: this.sealedAfter } : {}),
      sealedMatches: this.sealedMatches,
      // The memory ladder numbers its games; the store puts its count in (memory-store.ts sealMeta).
      sealedGames: 0,
      ...(this.matchesSeal ? { matchesSeal: this.matchesSeal } : {}),
      ...(this.preKey ? { preKey: this.preKey } : {}),
      ...(this.headSeal ? { headSeal: this.headSeal } : {}),
    };
  }

  claim(keyCheck: string): SealMeta {
    if (this.keyCheck === undefined) {
      this.keyCheck = keyCheck;
      this.sealedAfter = { match: this.lastMatchId, result: this.nextResultId - 1 };
    }
    return this.meta();
  }

  /** Seals the head once the database has a key: `unsealed` (rows without a seal now) are older than it. */
  sealHead(k: SealKey, unsealed: Omit<UnsealedCounts, 'matches' | 'results'>): boolean {
    if (this.keyCheck !== undefined && this.headSeal === undefined) {
      this.preKey = { ...unsealed, ...this.unsealed() };
      this.headSeal = headSeal(k, { keyCheck: this.keyCheck, sealedAfter: this.sealedAfter ?? { match: 0, result: 0 }, preKey: this.preKey });
    }
    return this.headSeal !== undefined;
  }

  /** Matches and results without a seal now. */
  unsealed(): Pick<UnsealedCounts, 'matches' | 'results'> {
    return { matches: [...this.matches.values()].filter((m) => m.seal === undefined).length, results: [...this.results.values()].filter((r) => r.seal === undefined).length };
  }

  matchCreated(k: SealKey | undefined, m: Omit<MatchSealed, 'seq'>): void {
    this.lastMatchId = m.id;
    if (!k) {
      this.matches.set(m.id, { sealedResults: 0 });
      return;
    }
    const seq = ++this.sealedMatches;
    this.matchesSeal = matchCountSeal(k, seq);
    this.matches.set(m.id, { sealedResults: 0, seq, seal: matchSeal(k, { ...m, seq }) });
  }

  /** Seals a scramble just stored or whose bound changed; one stored unsealed stays so. */
  scrambleStored(k: SealKey | undefined, s: ScrambleRecord, stateSha256?: string): void {
    const digest = stateSha256 ?? this.scrambles.get(s.id)?.stateSha256;
    if (!k || digest === undefined) return;
    this.scrambles.set(s.id, { stateSha256: digest, seal: scrambleSeal(k, { ...s, stateSha256: digest }) });
  }

  resultStored(k: SealKey | undefined, r: ResultRecord, s: ScrambleRecord, movesSha256: string): void {
    const resultId = this.nextResultId++;
    const key = `${r.scrambleId}\u0000${r.bot}`;
    const m = this.matches.get(s.matchId)!;
    if (!k) {
      this.results.set(key, { resultId, scrambleId: r.scrambleId, bot: r.bot });
      return;
    }
    const seq = m.sealedResults + 1;
    const { moves: _moves, scrambleId: _s, ...fields } = r;
    const seal = resultSeal(k, { ...fields, matchId: s.matchId, scrambleIndex: s.index, seq, movesSha256 });
    this.results.set(key, { resultId, scrambleId: r.scrambleId, bot: r.bot, seq, movesSha256, seal });
    this.matches.set(s.matchId, { ...m, sealedResults: seq, countSeal: countSeal(k, s.matchId, seq) });
  }

  resultRemoved(k: SealKey | undefined, scrambleId: number, bot: string, s: ScrambleRecord): void {
    const key = `${scrambleId}\u0000${bot}`;
    const r = this.results.get(key);
    this.results.delete(key);
    if (r?.seq === undefined) return;
    const removal: Removal = { seq: r.seq, scrambleIndex: s.index, bot, ...(k ? { seal: removalSeal(k, { matchId: s.matchId, seq: r.seq, scrambleIndex: s.index, bot }) } : {}) };
    this.removals.set(s.matchId, [...(this.removals.get(s.matchId) ?? []), removal]);
  }

  /** The seals of a match whose scrambles and results (in store order) are given. */
  matchSeals(matchId: number, scrambles: readonly ScrambleRecord[], results: readonly { scrambleId: number; bot: string }[]): MatchSeals | undefined {
    const m = this.matches.get(matchId);
    if (!m) return undefined;
    return {
      ...m,
      scrambles: scrambles.map((s) => ({ scrambleId: s.id, index: s.index, ...(this.scrambles.get(s.id) ?? {}) })),
      results: results.map((r) => this.results.get(`${r.scrambleId}\u0000${r.bot}`)!),
      removals: [...(this.removals.get(matchId) ?? [])].sort((a, b) => a.seq - b.seq),
    };
  }
}
