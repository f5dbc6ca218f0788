/**
 * The SQLite schema as an ordered list of migrations. `PRAGMA user_version` records how many have been
 * applied; opening a database applies the missing ones in one transaction, so a crash mid-migration leaves
 * the file at the old version rather than half-migrated.
 */
import type Database from 'better-sqlite3';
import { VERDICTS } from '../../core/verdict.ts';
import { SQLITE_SEAL_HEAD_STEP, SQLITE_SEAL_STEP, SQLITE_HEAD_VERSION } from '../steps/seal-schema.ts';
import { SQLITE_LADDER_STEP } from '../steps/ladder-schema.ts';
import { SQLITE_REWRITES_STEP } from '../steps/rewrites-schema.ts';
import { SQLITE_BOT_SNAPSHOT_STEP } from '../steps/bot-snapshot-schema.ts';
import { SQLITE_PARTICIPANT_STEP } from '../steps/participant-schema.ts';
import { SQLITE_SUBMISSION_STEP } from '../steps/submission-schema.ts';
import { SQLITE_STDERR_STEP, STDERR_STEP_VERSION } from '../steps/stderr-schema.ts';

/** One schema step. `version` is the user_version after it ran; versions are 1, 2, 3… in order. */
export interface Migration {
  readonly version: number;
  readonly description: string;
  readonly sql: string;
}

/**
 * Marks a file as ours (`PRAGMA application_id`, "PzAr"), so a random SQLite database of another program is
 * refused instead of being migrated into.
 */
export const APPLICATION_ID = 0x507a4172;

/** The verdicts of schema v1, frozen: a released migration must create the same table forever. */
const V1_VERDICTS = `'solved', 'invalid', 'timeout', 'crash', 'protocol', 'unsupported', 'gave-up'`;
/** Every verdict this code can record; a new verdict needs a migration that rebuilds `results` with it. */
const verdictList = VERDICTS.map((v) => `'${v}'`).join(', ');

/** Every migration, oldest first. Append only: never edit a released step. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'bots, matches, scrambles, results',
    sql: `
      CREATE TABLE bots (
        name        TEXT PRIMARY KEY NOT NULL,
        kind        TEXT NOT NULL CHECK (kind IN ('command', 'remote')),
        cmd         TEXT,
        cwd         TEXT,
        stdio       INTEGER CHECK (stdio IN (0, 1)),
        token_hash  TEXT,
        created_at  TEXT NOT NULL
      ) STRICT;

      CREATE TABLE matches (
        id                 INTEGER PRIMARY KEY,
        config             TEXT NOT NULL,
        seed               TEXT NOT NULL,
        generator_version  TEXT NOT NULL,
        bots               TEXT NOT NULL,
        status             TEXT NOT NULL CHECK (status IN ('running', 'interrupted', 'finished')),
        created_at         TEXT NOT NULL,
        updated_at         TEXT NOT NULL
      ) STRICT;

      CREATE TABLE scrambles (
        id            INTEGER PRIMARY KEY,
        match_id      INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
        idx           INTEGER NOT NULL,
        state         TEXT NOT NULL,
        puzzle_class  TEXT NOT NULL,
        optimal       INTEGER,
        lower_bound   INTEGER NOT NULL,
        UNIQUE (match_id, idx)
      ) STRICT;
      CREATE INDEX scrambles_by_class ON scrambles (puzzle_class);

      -- moves_kind says how to decode moves: 'text' is the joined move string verbatim (one byte per
      -- sliding move, so a 1e6-move answer stays ~1 MB), 'pairs' is the JSON array of swap pairs.
      CREATE TABLE results (
        id               INTEGER PRIMARY KEY,
        scramble_id      INTEGER NOT NULL REFERENCES scrambles(id) ON DELETE CASCADE,
        bot              TEXT NOT NULL,
        verdict          TEXT NOT NULL CHECK (verdict IN (${V1_VERDICTS})),
        move_count       INTEGER NOT NULL,
        moves_kind       TEXT NOT NULL CHECK (moves_kind IN ('text', 'pairs')),
        moves            TEXT NOT NULL,
        wall_ms          REAL NOT NULL,
        reported_ms      REAL,
        claimed_optimal  INTEGER CHECK (claimed_optimal IN (0, 1)),
        note             TEXT,
        error_index      INTEGER,
        error            TEXT,
        created_at       TEXT NOT NULL,
        UNIQUE (scramble_id, bot)
      ) STRICT;
      CREATE INDEX results_by_bot ON results (bot);
    `,
  },
  {
    version: 2,
    description: 'results: which worker and CPU model played them',
    sql: `
      ALTER TABLE results ADD COLUMN worker TEXT;
      ALTER TABLE results ADD COLUMN cpu TEXT;
    `,
  },
  {
    version: 3,
    description: 'nodes a bot reported; why a scramble bound is not exact',
    sql: `
      ALTER TABLE results ADD COLUMN nodes REAL;
      ALTER TABLE scrambles ADD COLUMN bound_note TEXT;
    `,
  },
  {
    version: 4,
    description: "verdict 'memory'; moves may be a packed BLOB (moves_kind 'packed')",
    // SQLite cannot alter a CHECK constraint: rebuild the table and copy the rows (ids kept). Nothing
    // references results, so dropping the old table breaks no foreign key.
    sql: `
      CREATE TABLE results_v4 (
        id               INTEGER PRIMARY KEY,
        scramble_id      INTEGER NOT NULL REFERENCES scrambles(id) ON DELETE CASCADE,
        bot              TEXT NOT NULL,
        verdict          TEXT NOT NULL CHECK (verdict IN (${verdictList})),
        move_count       INTEGER NOT NULL,
        -- 'text': the move string verbatim; 'pairs': swap pairs as JSON text; 'packed': a BLOB in the
        -- compact encoding of the scramble's puzzle kind (see the kind's Puzzle object).
        moves_kind       TEXT NOT NULL CHECK (moves_kind IN ('text', 'pairs', 'packed')),
        moves            ANY NOT NULL CHECK ((moves_kind = 'packed') = (typeof(moves) = 'blob')),
        wall_ms          REAL NOT NULL,
        reported_ms      REAL,
        claimed_optimal  INTEGER CHECK (claimed_optimal IN (0, 1)),
        note             TEXT,
        error_index      INTEGER,
        error            TEXT,
        created_at       TEXT NOT NULL,
        worker           TEXT,
        cpu              TEXT,
        nodes            REAL,
        UNIQUE (scramble_id, bot)
      ) STRICT;
      INSERT INTO results_v4 (id, scramble_id, bot, verdict, move_count, moves_kind, moves, wall_ms, reported_ms, claimed_optimal, note, error_index, error, created_at, worker, cpu, nodes)
        SELECT id, scramble_id, bot, verdict, move_count, moves_kind, moves, wall_ms, reported_ms, claimed_optimal, note, error_index, error, created_at, worker, cpu, nodes FROM results;
      DROP TABLE results;
      ALTER TABLE results_v4 RENAME TO results;
      CREATE INDEX results_by_bot ON results (bot);
    `,
  },
  {
    version: 5,
    description: 'results: CPU time of the bot over the solve',
    sql: `ALTER TABLE results ADD COLUMN cpu_ms REAL;`,
  },
  {
    version: 6,
    description: 'long answers in blocks (result_moves), so no write holds a whole answer three times',
    // A result whose moves_kind is 'packed' keeps in moves one byte naming its move form (0 text, 1 pairs)
    // and its moves here, in the referee's blocks of at most 1 MiB (src/puzzles/move-pieces.ts), in order.
    sql: `
      CREATE TABLE result_moves (
        result_id  INTEGER NOT NULL REFERENCES results(id) ON DELETE CASCADE,
        seq        INTEGER NOT NULL,
        block      BLOB NOT NULL,
        PRIMARY KEY (result_id, seq)
      ) STRICT;
    `,
  },
  // Seals for arena audit (issue 19); kept in its own file so it can be renumbered at merge as one step.
  { version: 7, ...SQLITE_SEAL_STEP },
  {
    version: 8,
    description: 'optima: exact optimum lengths by canonical state, found once for every match of the database',
    sql: `
      CREATE TABLE optima (
        state_key  TEXT PRIMARY KEY,
        optimal    INTEGER NOT NULL CHECK (optimal >= 0),
        created_at TEXT NOT NULL
      ) STRICT, WITHOUT ROWID;
    `,
  },
  // The standing ladder (issue 24); its own file, so it can be renumbered at merge as one step.
  { version: 9, ...SQLITE_LADDER_STEP },
  { version: 10, ...SQLITE_REWRITES_STEP },
  // Seals of the seal bookkeeping, the optima and the ladder (issue 29); one line to renumber at a merge.
  { version: SQLITE_HEAD_VERSION, ...SQLITE_SEAL_HEAD_STEP },
  { version: 12, ...SQLITE_BOT_SNAPSHOT_STEP },
  // Participants and web sessions (issue 32); one line to renumber at a merge.
  { version: 13, ...SQLITE_PARTICIPANT_STEP },
  // Submissions, their versions in blocks, bots' owner and source (issue 32); one line to renumber at a merge.
  { version: 14, ...SQLITE_SUBMISSION_STEP },
  // Each bot's stderr of each match (issue 32); its version is one constant to renumber at a merge.
  { version: STDERR_STEP_VERSION, ...SQLITE_STDERR_STEP },
];

/** The schema version this code writes and understands. */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;

/**
 * Brings `db` up to the last of `migrations` ({@link SCHEMA_VERSION} by default) in one transaction. Returns
 * the version found before migrating. Throws an Error with a one-line message when the file is newer than
 * this code or belongs to another application; a failing step rolls every step of this call back.
 */
export function migrate(db: Database.Database, migrations: readonly Migration[] = MIGRATIONS): number {
  const target = migrations.length === 0 ? 0 : migrations[migrations.length - 1].version;
  const found = db.pragma('user_version', { simple: true }) as number;
  const appId = db.pragma('application_id', { simple: true }) as number;
  if (appId !== 0 && appId !== APPLICATION_ID) {
    throw new Error(`not a puzzle-arena database (application_id ${appId})`);
  }
  if (found > target) {
    throw new Error(`database schema v${found} is newer than this puzzle-arena (v${target})`);
  }
  if (found === target) return found;
  if (found === 0 && appId === 0) {
    // A fresh file has no tables; a version-0 file with tables was made by someone else.
    const tables = db.prepare(`SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table'`).get() as { n: number };
    if (tables.n > 0) throw new Error('not a puzzle-arena database (it has foreign tables and no schema version)');
  }
  db.transaction(() => {
    // Re-read under the write lock: another process may have migrated since the check above.
    const current = db.pragma('user_version', { simple: true }) as number;
    for (const m of migrations) {
      if (m.version <= current) continue;
      db.exec(m.sql);
      // PRAGMA takes no bound parameters; the value is our own integer constant.
      db.pragma(`user_version = ${m.version}`);
    }
    db.pragma(`application_id = ${APPLICATION_ID}`);
  }).immediate();
  return found;
}
