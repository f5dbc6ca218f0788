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
