/**
 * Seals in the SQLite store (see ./seal.ts): statements prepared once, run inside the store's own
 * transactions (the caller holds them), so a seal is committed with exactly what it covers.
 */
import type Database from 'better-sqlite3';
import type { Bound } from '../../core/types.ts';
import { makeBound, opt, SEAL_META_COLUMNS, sealMetaOf, type SealMetaRow } from '../row-codec.ts';
import { headParams, headUpdateSql, sealedTablesOf, sealedTablesSql, unsealedOf, unsealedSql, type SqlDialect, type UnsealedRow } from '../seal-head.ts';
import type { GameRow, VersionRow } from '../ladder-rows.ts';
import { countSeal, matchCountSeal, matchSeal, removalSeal, resultSeal, scrambleSeal, type MatchSealed, type SealKey } from '../seal.ts';
import type { MatchSeals, ResultRecord, SealedTables, SealMeta } from '../types.ts';

const SQLITE: SqlDialect = { ns: '', p: () => '?' };

/** Reads and writes the seal columns of one SQLite database. */
export class SqliteSeals {
  private readonly s;

  constructor(private readonly db: Database.Database) {
    this.s = {
      meta: db.prepare<[], SealMetaRow>(`SELECT ${SEAL_META_COLUMNS} FROM seal_meta WHERE one = 1`),
      unsealed: db.prepare<[], UnsealedRow>(unsealedSql(SQLITE)),
      head: db.prepare(headUpdateSql(SQLITE)),
      countMatch: db.prepare<[number, string]>(`UPDATE seal_meta SET sealed_matches = ?, matches_seal = ? WHERE one = 1`),
      claim: db.prepare<[string]>(
        `UPDATE seal_meta SET key_check = ?, after_match = (SELECT coalesce(max(id), 0) FROM matches),
                              after_result = (SELECT coalesce(max(id), 0) FROM results)
         WHERE one = 1 AND key_check IS NULL`,
      ),
      sealMatch: db.prepare<[string, number, number]>(`UPDATE matches SET seal = ?, seq = ? WHERE id = ?`),
      sealScramble: db.prepare<[string, string, number]>(`UPDATE scrambles SET state_sha256 = ?, seal = ? WHERE id = ?`),
      scramble: db.prepare<[number], { match_id: number; idx: number; puzzle_class: string; optimal: number | null; lower_bound: number; bound_note: string | null; state_sha256: string | null; sealed_results: number }>(
        `SELECT s.match_id, s.idx, s.puzzle_class, s.optimal, s.lower_bound, s.bound_note, s.state_sha256, m.sealed_results
         FROM scrambles s JOIN matches m ON m.id = s.match_id WHERE s.id = ?`,
      ),
      count: db.prepare<[number, string, number]>(`UPDATE matches SET sealed_results = ?, count_seal = ? WHERE id = ?`),
      removable: db.prepare<[string], { match_id: number; seq: number; idx: number; bot: string }>(
        `SELECT s.match_id, r.seq, s.idx, r.bot FROM results r JOIN scrambles s ON s.id = r.scramble_id WHERE r.bot = ? AND r.seq IS NOT NULL`,
      ),
      removal: db.prepare<[number, number, number, string, string | null]>(
        `INSERT OR REPLACE INTO result_removals (match_id, seq, scramble_idx, bot, seal) VALUES (?, ?, ?, ?, ?)`,
      ),
      matchSeals: db.prepare<[number], { seal: string | null; seq: number | null; sealed_results: number; count_seal: string | null }>(
        `SELECT seal, seq, sealed_results, count_seal FROM matches WHERE id = ?`,
      ),
      scrambleSeals: db.prepare<[number], { id: number; idx: number; state_sha256: string | null; seal: string | null }>(
        `SELECT id, idx, state_sha256, seal FROM scrambles WHERE match_id = ? ORDER BY idx`,
      ),
      resultSeals: db.prepare<[number], { id: number; scramble_id: number; bot: string; seq: number | null; moves_sha256: string | null; seal: string | null }>(
        `SELECT r.id, r.scramble_id, r.bot, r.seq, r.moves_sha256, r.seal FROM results r JOIN scrambles s ON s.id = r.scramble_id
         WHERE s.match_id = ? ORDER BY s.idx, r.id`,
      ),
      removals: db.prepare<[number], { seq: number; scramble_idx: number; bot: string; seal: string | null }>(
        `SELECT seq, scramble_idx, bot, seal FROM result_removals WHERE match_id = ? ORDER BY seq`,
      ),
    };
  }

  meta(): SealMeta {
    const row = this.s.meta.get();
    if (!row) throw new Error('seal_meta has no row');
    return sealMetaOf(row);
  }

  /** Records the key check unless there is one; true when this call recorded it. */
  claim(keyCheck: string): { meta: SealMeta; claimed: boolean } {
    const claimed = this.s.claim.run(keyCheck).changes > 0;
    return { meta: this.meta(), claimed };
  }

  /** Seals the head if it has none (see Store.sealHead; the caller says whether it may). */
  sealHead(k: SealKey): boolean {
    return this.db.transaction(() => {
      const params = headParams(k, this.meta(), unsealedOf(this.s.unsealed.get()!));
      if (params) this.s.head.run(...params);
      return this.meta().headSeal !== undefined;
    }).immediate();
  }

  /** The optima and the ladder's tables with their seals, read in one transaction. */
  sealedTables(): SealedTables {
    const sql = sealedTablesSql(SQLITE);
    return this.db.transaction(() =>
      sealedTablesOf(
        this.db.prepare<[], { state_key: string; optimal: number; seal: string | null }>(sql.optima).all(),
        this.db.prepare<[], VersionRow & { seal: string | null }>(sql.versions).all(),
        this.db.prepare<[], GameRow & { seq: number | null; seal: string | null }>(sql.games).all(),
        unsealedOf(this.s.unsealed.get()!),
      ),
    )();
  }

  /** Numbers and seals a match just created, and reseals the count (the caller holds the transaction). */
  sealMatch(k: SealKey, m: Omit<MatchSealed, 'seq'>): void {
    const seq = this.meta().sealedMatches + 1;
    this.s.sealMatch.run(matchSeal(k, { ...m, seq }), seq, m.id);
    this.s.countMatch.run(seq, matchCountSeal(k, seq));
  }

  /** Seals a scramble just inserted (`stateSha256` of its stored text), or whose bound just changed. */
  sealScramble(k: SealKey, id: number, stateSha256?: string): void {
    const row = this.s.scramble.get(id);
    if (!row) return;
    const digest = stateSha256 ?? row.state_sha256 ?? undefined;
    // A scramble stored before sealing began stays unsealed: its state is not re-read to seal it now.
    if (digest === undefined) return;
    const bound: Bound = makeBound(row.optimal, row.lower_bound);
    const seal = scrambleSeal(k, { matchId: row.match_id, index: row.idx, stateSha256: digest, puzzleClass: row.puzzle_class, bound, ...(row.bound_note !== null ? { boundNote: row.bound_note } : {}) });
    this.s.sealScramble.run(digest, seal, id);
  }

  /**
   * The seal columns of a result about to be inserted: its number in its match (one more than the match's
   * sealed results) and its seal; undefined for an unknown scramble. The caller holds the transaction, and
   * calls {@link countResult} once the row is in.
   */
  resultColumns(k: SealKey, r: ResultRecord, movesSha256: string): { matchId: number; seq: number; seal: string } | undefined {
    const s = this.s.scramble.get(r.scrambleId);
    if (!s) return undefined;
    const seq = s.sealed_results + 1;
    const { moves: _moves, scrambleId: _s, ...fields } = r;
    return { matchId: s.match_id, seq, seal: resultSeal(k, { ...fields, matchId: s.match_id, scrambleIndex: s.idx, seq, movesSha256 }) };
  }

  /** Counts (and reseals the count of) a sealed result just inserted as number `seq` of its match. */
  countResult(k: SealKey, matchId: number, seq: number): void {
    this.s.count.run(seq, countSeal(k, matchId, seq), matchId);
  }

  /** Before a bot's results are deleted: a (sealed, when `k` is given) removal for each numbered one. */
  recordRemovals(k: SealKey | undefined, bot: string): void {
    for (const r of this.s.removable.all(bot)) {
      const seal = k ? removalSeal(k, { matchId: r.match_id, seq: r.seq, scrambleIndex: r.idx, bot: r.bot }) : null;
      this.s.removal.run(r.match_id, r.seq, r.idx, r.bot, seal);
    }
  }

  /** The seals of a match, read in one transaction: the count and the rows it counts agree. */
  matchSeals(matchId: number): MatchSeals | undefined {
    return this.db.transaction(() => this.readSeals(matchId))();
  }

  private readSeals(matchId: number): MatchSeals | undefined {
    const m = this.s.matchSeals.get(matchId);
    if (!m) return undefined;
    return {
      ...(m.seal !== null ? { seal: m.seal } : {}),
      ...opt('seq', m.seq),
      sealedResults: m.sealed_results,
      ...(m.count_seal !== null ? { countSeal: m.count_seal } : {}),
      scrambles: this.s.scrambleSeals.all(matchId).map((x) => ({ scrambleId: x.id, index: x.idx, ...opt('stateSha256', x.state_sha256), ...opt('seal', x.seal) })),
      results: this.s.resultSeals.all(matchId).map((x) => ({
        resultId: x.id,
        scrambleId: x.scramble_id,
        bot: x.bot,
        ...opt('seq', x.seq),
        ...opt('movesSha256', x.moves_sha256),
        ...opt('seal', x.seal),
      })),
      removals: this.s.removals.all(matchId).map((x) => ({ seq: x.seq, scrambleIndex: x.scramble_idx, bot: x.bot, ...opt('seal', x.seal) })),
    };
  }
}
