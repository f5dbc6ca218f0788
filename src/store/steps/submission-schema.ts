/**
 * The schema step of submissions (issue 32): each participant's submission with its status and build log,
 * the versions they name stored content-addressed in bounded blocks (so every PostgreSQL worker can read a
 * version it never saw), and, on `bots`, whose a submitted bot is and which version it was built from. Its
 * own file, so it can be renumbered at merge as one step.
 */

const DESCRIPTION = 'submissions, their versions in blocks, and bots: owner and source version';

/** Blocks of a stored version: at most this many bytes each (1 MiB), so no row holds a whole archive. */
export const VERSION_BLOCK_BYTES = 2 ** 20;

/** The SQLite step. */
export const SQLITE_SUBMISSION_STEP = {
  description: DESCRIPTION,
  sql: `
    ALTER TABLE bots ADD COLUMN owner TEXT;
    ALTER TABLE bots ADD COLUMN source TEXT;
    CREATE TABLE versions (
      hash        TEXT PRIMARY KEY NOT NULL,
      bytes       INTEGER NOT NULL CHECK (bytes >= 0),
      blocks      INTEGER NOT NULL CHECK (blocks >= 0),
      created_at  TEXT NOT NULL
    ) STRICT;
    CREATE TABLE version_blocks (
      hash   TEXT NOT NULL REFERENCES versions(hash) ON DELETE CASCADE,
      seq    INTEGER NOT NULL,
      block  BLOB NOT NULL CHECK (length(block) <= ${VERSION_BLOCK_BYTES}),
      PRIMARY KEY (hash, seq)
    ) STRICT;
    CREATE TABLE submissions (
      id           INTEGER PRIMARY KEY,
      participant  TEXT NOT NULL,
      bot          TEXT NOT NULL,
      version      TEXT NOT NULL REFERENCES versions(hash),
      status       TEXT NOT NULL CHECK (status IN ('received', 'building', 'checking', 'placing', 'placed', 'failed')),
      reason       TEXT,
      log          TEXT CHECK (length(CAST(log AS BLOB)) <= 65536),
      bytes        INTEGER NOT NULL CHECK (bytes >= 0),
      ladder_hash  TEXT,
      created_at   TEXT NOT NULL,
      updated_at   TEXT NOT NULL
    ) STRICT;
    CREATE INDEX submissions_by_participant ON submissions (participant, created_at);
    CREATE INDEX submissions_by_status ON submissions (status, id);
  `,
};

/** The PostgreSQL step. */
export const PG_SUBMISSION_STEP = {
  description: DESCRIPTION,
  sql: `
    ALTER TABLE arena.bots ADD COLUMN owner text, ADD COLUMN source text;
    CREATE TABLE arena.versions (
      hash        text PRIMARY KEY,
      bytes       bigint NOT NULL CHECK (bytes >= 0),
      blocks      integer NOT NULL CHECK (blocks >= 0),
      created_at  timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE arena.version_blocks (
      hash   text NOT NULL REFERENCES arena.versions(hash) ON DELETE CASCADE,
      seq    integer NOT NULL,
      block  bytea NOT NULL CHECK (octet_length(block) <= ${VERSION_BLOCK_BYTES}),
      PRIMARY KEY (hash, seq)
    );
    CREATE TABLE arena.submissions (
      id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      participant  text NOT NULL,
      bot          text NOT NULL,
      version      text NOT NULL REFERENCES arena.versions(hash),
      status       text NOT NULL CHECK (status IN ('received', 'building', 'checking', 'placing', 'placed', 'failed')),
      reason       text,
      log          text CHECK (octet_length(log) <= 65536),
      bytes        bigint NOT NULL CHECK (bytes >= 0),
      ladder_hash  text,
      created_at   timestamptz NOT NULL,
      updated_at   timestamptz NOT NULL
    );
    CREATE INDEX submissions_by_participant ON arena.submissions (participant, created_at);
    CREATE INDEX submissions_by_status ON arena.submissions (status, id);
  `,
};
