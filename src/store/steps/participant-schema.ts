/**
 * The schema step of participants and their web sessions (issue 32). Tokens and session ids are kept only as
 * sha256 hashes (hex). Its own file, so it can be renumbered at merge as one step.
 */

const DESCRIPTION = 'participants (token hashes) and their web sessions (id hashes)';

/** The SQLite step. */
export const SQLITE_PARTICIPANT_STEP = {
  description: DESCRIPTION,
  sql: `
    CREATE TABLE participants (
      name        TEXT PRIMARY KEY NOT NULL,
      admin       INTEGER NOT NULL CHECK (admin IN (0, 1)),
      token_hash  TEXT NOT NULL UNIQUE,
      created_at  TEXT NOT NULL,
      revoked_at  TEXT
    ) STRICT;
    CREATE TABLE sessions (
      id_hash      TEXT PRIMARY KEY NOT NULL,
      participant  TEXT NOT NULL REFERENCES participants(name) ON DELETE CASCADE,
      created_at   TEXT NOT NULL,
      expires_at   TEXT NOT NULL
    ) STRICT;
    CREATE INDEX sessions_by_expiry ON sessions (expires_at);
  `,
};

/** The PostgreSQL step. */
export const PG_PARTICIPANT_STEP = {
  description: DESCRIPTION,
  sql: `
    CREATE TABLE arena.participants (
      name        text PRIMARY KEY,
      admin       boolean NOT NULL,
      token_hash  text NOT NULL UNIQUE,
      created_at  timestamptz NOT NULL DEFAULT now(),
      revoked_at  timestamptz
    );
    CREATE TABLE arena.sessions (
      id_hash      text PRIMARY KEY,
      participant  text NOT NULL REFERENCES arena.participants(name) ON DELETE CASCADE,
      created_at   timestamptz NOT NULL DEFAULT now(),
      expires_at   timestamptz NOT NULL
    );
    CREATE INDEX sessions_by_expiry ON arena.sessions (expires_at);
  `,
};
