/**
 * The schema step that keeps each bot's stderr of each match (issue 32), capped: the first and last bytes
 * of everything its processes wrote in the match and the count of bytes cut between them
 * (core/capped-text.ts). Shown to the bot's owner only. Its own file, so it can be renumbered at merge.
 */

const DESCRIPTION = "bot_stderr: each bot's stderr of each match, capped (its head, its tail, the bytes cut between)";

/**
 * The version this step brings a database to: 15, after the submissions step (14), which is written beside
 * it on another branch. Until both are merged, version 14 is missing (a fresh database goes 13 → 15).
 */
export const STDERR_STEP_VERSION = 15;

/** The SQLite step. */
export const SQLITE_STDERR_STEP = {
  description: DESCRIPTION,
  sql: `
    CREATE TABLE bot_stderr (
      match_id   INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
      bot        TEXT NOT NULL,
      head       TEXT NOT NULL,
      tail       TEXT NOT NULL,
      cut_bytes  INTEGER NOT NULL CHECK (cut_bytes >= 0),
      PRIMARY KEY (match_id, bot)
    ) STRICT, WITHOUT ROWID;
  `,
};

/** The PostgreSQL step. */
export const PG_STDERR_STEP = {
  description: DESCRIPTION,
  sql: `
    CREATE TABLE arena.bot_stderr (
      match_id   bigint NOT NULL REFERENCES arena.matches(id) ON DELETE CASCADE,
      bot        text NOT NULL,
      head       text NOT NULL,
      tail       text NOT NULL,
      cut_bytes  bigint NOT NULL CHECK (cut_bytes >= 0),
      PRIMARY KEY (match_id, bot)
    );
  `,
};
