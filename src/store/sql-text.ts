/**
 * The statements the SQLite and PostgreSQL stores share, written once. Parameters are `$1`, `$2`, … in both:
 * PostgreSQL's own syntax, and for better-sqlite3 named parameters bound from an object keyed 1, 2, …
 * ({@link sqliteArgs}). What the dialects spell differently (the table namespace, byte-wise order) comes
 * from the {@link SqlDialect}; statements only one database can run stay in that store.
 */
import type { ResultRecord } from './types.ts';
import { wellFormed } from './row-codec.ts';
import type { SqlDialect } from './sql-rows.ts';

/** The columns of a match the stores read. */
const MATCH_COLUMNS = 'id, config, seed, generator_version, bots, status, created_at';

const SUMMARY_COLUMNS = `r.scramble_id, r.bot, r.verdict, r.move_count, r.wall_ms, r.cpu_ms, r.reported_ms,
         r.claimed_optimal, r.note, r.nodes, r.error_index, r.error, r.worker, r.cpu,
         s.match_id, s.idx, s.puzzle_class, s.optimal, s.lower_bound`;

/** Every statement both stores run, in `d`'s spelling. */
export function sharedSql(d: SqlDialect) {
  const t = d.table;
  const fromResults = `FROM ${t('results')} r JOIN ${t('scrambles')} s ON s.id = r.scramble_id`;
  const results = `SELECT ${SUMMARY_COLUMNS}, r.id AS result_id, r.moves_kind, r.moves ${fromResults}`;
  const summaries = `SELECT ${SUMMARY_COLUMNS} ${fromResults}`;
  const byMatch = 'WHERE s.match_id = $1 ORDER BY s.idx, r.id';
  const all = 'ORDER BY s.match_id, s.idx, r.id';
  const byClass = `WHERE s.puzzle_class = $1 ${all}`;
  return {
    addBot: `INSERT INTO ${t('bots')} (name, kind, cmd, cwd, stdio, token_hash, created_at, snapshot, runtime, owner, source) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    setBotSnapshot: `UPDATE ${t('bots')} SET snapshot = $2, runtime = $3 WHERE name = $1 AND kind = 'command'`,
    getBot: `SELECT * FROM ${t('bots')} WHERE name = $1`,
    listBots: `SELECT * FROM ${t('bots')} ORDER BY name${d.bytewise}`,
    removeBot: `DELETE FROM ${t('bots')} WHERE name = $1`,
    createMatch: `INSERT INTO ${t('matches')} (config, seed, generator_version, bots, status, created_at, updated_at)
                  VALUES ($1, $2, $3, $4, 'running', $5, $5)`,
    getMatch: `SELECT ${MATCH_COLUMNS} FROM ${t('matches')} WHERE id = $1`,
    // A null filter field does not narrow. Bots and classes match whole-word prefixes (see MatchFilter).
    listMatches: (botElements: string) => `SELECT ${MATCH_COLUMNS} FROM ${t('matches')} m
       WHERE (CAST($2 AS TEXT) IS NULL OR m.status = $2)
         AND (CAST($3 AS TEXT) IS NULL OR EXISTS (SELECT 1 FROM ${botElements}
              WHERE b.value = $3 OR substr(b.value, 1, length($3) + 1) = $3 || ' '))
         AND (CAST($4 AS TEXT) IS NULL OR EXISTS (SELECT 1 FROM ${t('scrambles')} s WHERE s.match_id = m.id
              AND (s.puzzle_class = $4 OR substr(s.puzzle_class, 1, length($4) + 1) = $4 || ' ')))
       ORDER BY m.id DESC LIMIT $1`,
    setMatchStatus: `UPDATE ${t('matches')} SET status = $1, updated_at = $2 WHERE id = $3`,
    listScrambles: `SELECT * FROM ${t('scrambles')} WHERE match_id = $1 ORDER BY idx`,
    pageScrambles: `SELECT * FROM ${t('scrambles')} WHERE match_id = $1 AND idx >= $2 ORDER BY idx LIMIT $3`,
    scrambleClasses: `SELECT puzzle_class, count(*) AS n FROM ${t('scrambles')} WHERE match_id = $1 GROUP BY puzzle_class ORDER BY min(idx)`,
    setScrambleBound: `UPDATE ${t('scrambles')} SET optimal = $1, lower_bound = $2, bound_note = $3 WHERE id = $4`,
    // A retried job writes the pair again: ON CONFLICT keeps the first write.
    insertResult: `INSERT INTO ${t('results')} (scramble_id, bot, verdict, move_count, moves_kind, moves, wall_ms, cpu_ms, reported_ms,
                         claimed_optimal, note, nodes, error_index, error, worker, cpu, created_at, seq, moves_sha256, seal)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)
         ON CONFLICT (scramble_id, bot) DO NOTHING`,
    removeResults: `DELETE FROM ${t('results')} WHERE bot = $1`,
    listResults: `${results} ${byMatch}`,
    getResult: `${results} WHERE r.scramble_id = $1 AND r.bot = $2`,
    allResults: `${results} ${all}`,
    classResults: `${results} ${byClass}`,
    getSummary: `${summaries} WHERE r.scramble_id = $1 AND r.bot = $2`,
    listSummaries: `${summaries} ${byMatch}`,
    allSummaries: `${summaries} ${all}`,
    classSummaries: `${summaries} ${byClass}`,
    // What rated-results.ts appends after a write (src/store/columns-since.ts).
    summariesSince: `SELECT r.id, r.scramble_id, r.bot, r.verdict, r.move_count, r.wall_ms, s.match_id, s.puzzle_class, s.optimal,
                            s.lower_bound ${fromResults} WHERE r.id > $1 ORDER BY r.id`,
    rewriteMarks: `SELECT key, value FROM ${t('ladder_state')} WHERE key IN ('results-deleted', 'bounds-changed') ORDER BY key`,
    lastResultId: `SELECT coalesce(max(id), 0) AS id FROM ${t('results')}`,
    resultMoves: `SELECT id, moves_kind, moves FROM ${t('results')} WHERE scramble_id = $1 AND bot = $2`,
    insertBlock: `INSERT INTO ${t('result_moves')} (result_id, seq, block) VALUES ($1, $2, $3)`,
    moveBlock: `SELECT block FROM ${t('result_moves')} WHERE result_id = $1 AND seq = $2`,
    moveBlocks: `SELECT block FROM ${t('result_moves')} WHERE result_id = $1 ORDER BY seq`,
  };
}

/** The statements of {@link sharedSql}. */
export type SharedSql = ReturnType<typeof sharedSql>;

/**
 * `text` with its `$1`, `$2`, … spelt `?` for better-sqlite3's positional binding, which takes the values as
 * they are instead of an object keyed 1, 2, … looked up by name per parameter (≈ 4 µs a row on the results
 * INSERT, the statement of every result). Only for a statement that names each parameter once, in order:
 * anything else is a programmer error and throws.
 */
export function positionalSql(text: string): string {
  let next = 1;
  const out = text.replace(/\$(\d+)/g, (_, n: string) => {
    if (Number(n) !== next) throw new Error(`positionalSql: $${n} where $${next} was due`);
    next++;
    return '?';
  });
  return out;
}

/** Positional values as better-sqlite3 binds `$1`, `$2`, …: an object keyed by their numbers. */
export function sqliteArgs(...values: unknown[]): Record<number, unknown> {
  const out: Record<number, unknown> = {};
  for (let i = 0; i < values.length; i++) out[i + 1] = values[i];
  return out;
}

/** The seal columns of a result, when it is sealed. */
export interface ResultSealColumns {
  readonly seq: number;
  readonly movesSha256: string;
  readonly seal: string;
}

/** Text a bot sent, as both databases can hold it: lone surrogates as U+FFFD (and NUL where `d` asks). */
export function storedText(d: SqlDialect, s: string | undefined): string | null {
  return s === undefined ? null : d.text(wellFormed(s));
}

/** The values of `insertResult` for `r`, its moves columns and its seal. */
export function resultValues(d: SqlDialect, r: ResultRecord, moves: { kind: string; value: unknown }, createdAt: string, sealed?: ResultSealColumns): unknown[] {
  return [
    r.scrambleId, r.bot, r.verdict, r.moveCount, moves.kind, moves.value, r.wallMs, r.cpuMs ?? null, r.reportedMs ?? null,
    d.bool(r.claimedOptimal), storedText(d, r.note), r.nodes ?? null, r.errorIndex ?? null, storedText(d, r.error),
    storedText(d, r.worker), storedText(d, r.cpu), createdAt, sealed?.seq ?? null, sealed?.movesSha256 ?? null, sealed?.seal ?? null,
  ];
}
