/**
 * The schema step that adds seals (src/store/seal.ts), for SQLite and for PostgreSQL: one step each,
 * appended to ./schema.ts and ./pg-schema.ts. Existing rows stay unsealed (NULL); the database gets its
 * random id here, and its key when a process that may write first finds it without one.
 */

/** Columns and tables of the seals step; `ns` is the schema prefix ("" for SQLite, "arena." for PostgreSQL). */
function sealSql(ns: string, o: { strict: string; id: string; bigint: string }): string {
  return `
    CREATE TABLE ${ns}seal_meta (
      one           integer PRIMARY KEY CHECK (one = 1),
      db_id         text NOT NULL,
      key_check     text,
      after_match   ${o.bigint},
      after_result  ${o.bigint},
      -- Matches created sealed so far (numbered 1…n in matches.seq), and the seal of that count.
      sealed_matches  integer NOT NULL DEFAULT 0,
      matches_seal    text
    )${o.strict};
    INSERT INTO ${ns}seal_meta (one, db_id) VALUES (1, ${o.id});
    ALTER TABLE ${ns}matches ADD COLUMN seal text;
    ALTER TABLE ${ns}matches ADD COLUMN seq integer;
    ALTER TABLE ${ns}matches ADD COLUMN sealed_results integer NOT NULL DEFAULT 0;
    ALTER TABLE ${ns}matches ADD COLUMN count_seal text;
    ALTER TABLE ${ns}scrambles ADD COLUMN state_sha256 text;
    ALTER TABLE ${ns}scrambles ADD COLUMN seal text;
    ALTER TABLE ${ns}results ADD COLUMN seq integer;
    ALTER TABLE ${ns}results ADD COLUMN moves_sha256 text;
    ALTER TABLE ${ns}results ADD COLUMN seal text;
    -- A sealed result removed on purpose (arena bot remove --purge): its number, place and bot, sealed.
    CREATE TABLE ${ns}result_removals (
      match_id      ${o.bigint} NOT NULL REFERENCES ${ns}matches(id) ON DELETE CASCADE,
      seq           integer NOT NULL,
      scramble_idx  integer NOT NULL,
      bot           text NOT NULL,
      seal          text,
      PRIMARY KEY (match_id, seq)
    )${o.strict};
  `;
}

/** The SQLite step (STRICT tables take the lowercase type names above). */
export const SQLITE_SEAL_STEP = {
  description: 'seals: keyed digests of matches, scrambles and results, so arena audit sees edits',
  sql: sealSql('', { strict: ' STRICT', id: 'lower(hex(randomblob(16)))', bigint: 'integer' }),
};

/** The PostgreSQL step. */
export const PG_SEAL_STEP = {
  description: 'seals: keyed digests of matches, scrambles and results, so arena audit sees edits',
  sql: sealSql('arena.', { strict: '', id: 'md5(random()::text || clock_timestamp()::text)', bigint: 'bigint' }),
};

/**
 * The step that seals the rest (issue 29): the head of seal_meta (key check, watermark, and how many rows of
 * each table were older than the key), the exact-optimum cache and the ladder's tables. Existing rows stay
 * unsealed; a database that already had a key gets its head sealed by the process that migrates it while
 * holding the key (src/app/seal-keys.ts), and counts its unsealed rows then as older than the key.
 */
function headSql(ns: string): string {
  return `
    ALTER TABLE ${ns}seal_meta ADD COLUMN head_seal text;
    ALTER TABLE ${ns}seal_meta ADD COLUMN pre_matches integer;
    ALTER TABLE ${ns}seal_meta ADD COLUMN pre_results integer;
    ALTER TABLE ${ns}seal_meta ADD COLUMN pre_optima integer;
    ALTER TABLE ${ns}seal_meta ADD COLUMN pre_versions integer;
    ALTER TABLE ${ns}seal_meta ADD COLUMN pre_games integer;
    ALTER TABLE ${ns}optima ADD COLUMN seal text;
    ALTER TABLE ${ns}bot_versions ADD COLUMN seal text;
    ALTER TABLE ${ns}ladder_games ADD COLUMN seal text;
    -- Ladder games created sealed (numbered 1…n in ladder_games.seq), and the seal of that count.
    ALTER TABLE ${ns}ladder_games ADD COLUMN seq integer;
    ALTER TABLE ${ns}seal_meta ADD COLUMN sealed_games integer NOT NULL DEFAULT 0;
    ALTER TABLE ${ns}seal_meta ADD COLUMN games_seal text;
  `;
}

const HEAD_DESCRIPTION = 'seals of the seal bookkeeping (key check, watermark), the optima cache and the ladder tables';

/** The schema version that added the head: a store that migrates across it may seal an older head. */
export const SQLITE_HEAD_VERSION = 11;
export const PG_HEAD_VERSION = 11;

/** The SQLite step (schema.ts step 11). */
export const SQLITE_SEAL_HEAD_STEP = { description: HEAD_DESCRIPTION, sql: headSql('') };

/** The PostgreSQL step (pg-schema.ts step 11). */
export const PG_SEAL_HEAD_STEP = { description: HEAD_DESCRIPTION, sql: headSql('arena.') };
