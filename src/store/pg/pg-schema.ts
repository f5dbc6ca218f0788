/**
 * The PostgreSQL schema as an ordered list of migrations, the counterpart of ./schema.ts for SQLite. Our
 * tables live in their own PostgreSQL schema (`arena`), so a database shared with other applications (or
 * with the job queue's own schema) is never touched outside it. `arena.schema_version` records the version.
 *
 * Migrating runs in one transaction under a transaction-scoped advisory lock: two processes opening a fresh
 * database at once (a worker and a match starting together) serialize, and the second finds the work done.
 * A failing step rolls the whole call back, so a database is never left half-migrated.
 */
import type pg from 'pg';
import { VERDICTS } from '../../core/verdict.ts';
import { PG_SEAL_HEAD_STEP, PG_SEAL_STEP, PG_HEAD_VERSION } from '../steps/seal-schema.ts';
import { PG_LADDER_STEP } from '../steps/ladder-schema.ts';
import { PG_REWRITES_STEP } from '../steps/rewrites-schema.ts';
import { PG_BOT_SNAPSHOT_STEP } from '../steps/bot-snapshot-schema.ts';
import { PG_PARTICIPANT_STEP } from '../steps/participant-schema.ts';
import { PG_SUBMISSION_STEP } from '../steps/submission-schema.ts';
import { PG_STDERR_STEP, STDERR_STEP_VERSION } from '../steps/stderr-schema.ts';

/** One schema step. `version` is the schema version after it ran; versions are 1, 2, 3… in order. */
export interface PgMigration {
  readonly version: number;
  readonly description: string;
  readonly sql: string;
}

/** Our PostgreSQL schema (namespace). */
export const PG_SCHEMA = 'arena';

/** Advisory lock key for migrations: "PzAr" as an integer, the same tag SQLite files carry. */
const MIGRATION_LOCK_KEY = 0x507a4172;

/** The verdicts of schema v1, frozen: a released migration must create the same table forever. */
const V1_VERDICTS = `'solved', 'invalid', 'timeout', 'crash', 'protocol', 'unsupported', 'gave-up'`;
/** Every verdict this code can record; a new verdict needs a migration that replaces the CHECK. */
const verdictList = VERDICTS.map((v) => `'${v}'`).join(', ');

/** Every migration, oldest first. Append only: never edit a released step. */
export const PG_MIGRATIONS: readonly PgMigration[] = [
  {
    version: 1,
    description: 'bots, matches, scrambles, results (with who played them), workers and their jobs',
    sql: `
      CREATE TABLE arena.bots (
        name        text PRIMARY KEY,
        kind        text NOT NULL CHECK (kind IN ('command', 'remote')),
        cmd         text,
        cwd         text,
        stdio       boolean,
        token_hash  text,
        created_at  timestamptz NOT NULL DEFAULT now()
      );

      -- config and state are json (not jsonb) so they come back with the key order they were written in.
      CREATE TABLE arena.matches (
        id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        config             json NOT NULL,
        seed               text NOT NULL,
        generator_version  text NOT NULL,
        bots               json NOT NULL,
        status             text NOT NULL CHECK (status IN ('running', 'interrupted', 'finished')),
        created_at         timestamptz NOT NULL DEFAULT now(),
        updated_at         timestamptz NOT NULL DEFAULT now()
      );

      CREATE TABLE arena.scrambles (
        id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        match_id      bigint NOT NULL REFERENCES arena.matches(id) ON DELETE CASCADE,
        idx           integer NOT NULL,
        state         json NOT NULL,
        puzzle_class  text NOT NULL,
        optimal       integer,
        lower_bound   integer NOT NULL,
        UNIQUE (match_id, idx)
      );
      CREATE INDEX scrambles_by_class ON arena.scrambles (puzzle_class);

      -- moves_kind says how to decode moves: 'text' is the joined move string verbatim, 'pairs' the JSON
      -- array of swap pairs, 'json' a JSON string literal (for the rare string PostgreSQL text cannot hold:
      -- one with a NUL character, which only a broken bot sends). worker and cpu say who played the result.
      CREATE TABLE arena.results (
        id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        scramble_id      bigint NOT NULL REFERENCES arena.scrambles(id) ON DELETE CASCADE,
        bot              text NOT NULL,
        verdict          text NOT NULL CHECK (verdict IN (${V1_VERDICTS})),
        move_count       integer NOT NULL,
        moves_kind       text NOT NULL CHECK (moves_kind IN ('text', 'pairs', 'json')),
        moves            text NOT NULL,
        wall_ms          double precision NOT NULL,
        reported_ms      double precision,
        claimed_optimal  boolean,
        note             text,
        error_index      integer,
        error            text,
        worker           text,
        cpu              text,
        created_at       timestamptz NOT NULL DEFAULT now(),
        UNIQUE (scramble_id, bot)
      );
      CREATE INDEX results_by_bot ON arena.results (bot);

      -- Distributed matches. The jobs themselves live in the job queue's schema (pg-boss); these tables say
      -- which queue holds a match's jobs for one bot, who is working, on what, and who could not start a bot.
      CREATE TABLE arena.match_queues (
        match_id       bigint NOT NULL REFERENCES arena.matches(id) ON DELETE CASCADE,
        bot            text NOT NULL,
        queue          text NOT NULL UNIQUE,
        lease_seconds  integer NOT NULL,
        PRIMARY KEY (match_id, bot)
      );

      -- A worker is live while stopped_at is null; heartbeat_at is the server's clock, so machines with
      -- skewed clocks agree on who is stale.
      CREATE TABLE arena.workers (
        id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        name          text NOT NULL,
        host          text NOT NULL,
        cpu           text NOT NULL,
        pid           integer NOT NULL,
        concurrency   integer NOT NULL,
        started_at    timestamptz NOT NULL DEFAULT now(),
        heartbeat_at  timestamptz NOT NULL DEFAULT now(),
        stopped_at    timestamptz,
        stop_reason   text
      );
      CREATE INDEX workers_live ON arena.workers (heartbeat_at) WHERE stopped_at IS NULL;

      -- The queue jobs a worker holds. A row is removed when the job completes or is handed back; the rows of
      -- a worker found dead are how its jobs are handed back at once instead of after their lease.
      CREATE TABLE arena.worker_jobs (
        job_id      uuid PRIMARY KEY,
        queue       text NOT NULL,
        worker_id   bigint NOT NULL REFERENCES arena.workers(id) ON DELETE CASCADE,
        match_id    bigint NOT NULL,
        bot         text NOT NULL,
        scrambles   integer NOT NULL,
        started_at  timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX worker_jobs_by_worker ON arena.worker_jobs (worker_id);

      -- A worker that cannot start a bot says why, once per (match, bot, worker name).
      CREATE TABLE arena.refusals (
        match_id  bigint NOT NULL REFERENCES arena.matches(id) ON DELETE CASCADE,
        bot       text NOT NULL,
        worker    text NOT NULL,
        reason    text NOT NULL,
        at        timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (match_id, bot, worker)
      );
    `,
  },
  {
    version: 2,
    description: 'nodes a bot reported; why a scramble bound is not exact',
    sql: `
      ALTER TABLE arena.results ADD COLUMN nodes double precision;
      ALTER TABLE arena.scrambles ADD COLUMN bound_note text;
    `,
  },
  {
    version: 3,
    description: "verdict 'memory'",
    sql: `
      ALTER TABLE arena.results DROP CONSTRAINT results_verdict_check;
      ALTER TABLE arena.results ADD CONSTRAINT results_verdict_check CHECK (verdict IN (${verdictList}));
    `,
  },
  {
    version: 4,
    description: 'results: CPU time of the bot over the solve',
    sql: `ALTER TABLE arena.results ADD COLUMN cpu_ms double precision;`,
  },
  // Seals for arena audit (issue 19); kept in its own file so it can be renumbered at merge as one step.
  { version: 5, ...PG_SEAL_STEP },
  {
    version: 6,
    description: 'optima: exact optimum lengths by canonical state, found once for every match and worker',
    sql: `
      CREATE TABLE arena.optima (
        state_key   text PRIMARY KEY,
        optimal     integer NOT NULL CHECK (optimal >= 0),
        created_at  timestamptz NOT NULL DEFAULT now()
      );
    `,
  },
  {
    version: 7,
    description: 'long answers in blocks (result_moves), so no write or read holds a whole answer',
    // A result whose moves_kind is 'packed' keeps in moves the name of its move form and its moves here, in
    // the referee's blocks (src/puzzles/move-pieces.ts), in order, as SQLite does since its v6. Answers
    // stored whole before are split the same way when above 8 MiB (stored-moves.ts INLINE_MOVE_BYTES):
    // notation by 262,144 characters (at most 1 MiB of UTF-8, each block whole characters), pairs by 32,768
    // as JSON blocks (a 4-byte header of zeros, then the JSON array), which every reader already decodes.
    sql: `
      CREATE TABLE arena.result_moves (
        result_id  bigint NOT NULL REFERENCES arena.results(id) ON DELETE CASCADE,
        seq        integer NOT NULL,
        block      bytea NOT NULL,
        PRIMARY KEY (result_id, seq)
      );
      ALTER TABLE arena.results DROP CONSTRAINT results_moves_kind_check;
      ALTER TABLE arena.results ADD CONSTRAINT results_moves_kind_check CHECK (moves_kind IN ('text', 'pairs', 'json', 'packed'));

      INSERT INTO arena.result_moves (result_id, seq, block)
        SELECT r.id, g.i, convert_to(substr(r.moves, g.i * 262144 + 1, 262144), 'UTF8')
        FROM arena.results r, generate_series(0, (length(r.moves) - 1) / 262144) AS g(i)
        WHERE r.moves_kind = 'text' AND octet_length(r.moves) > 8388608;
      INSERT INTO arena.result_moves (result_id, seq, block)
        SELECT r.id, c.i, '\\x00000000'::bytea || convert_to(c.pairs::text, 'UTF8')
        FROM arena.results r, LATERAL (
          SELECT (e.n - 1) / 32768 AS i, json_agg(e.v ORDER BY e.n) AS pairs
          FROM json_array_elements(r.moves::json) WITH ORDINALITY AS e(v, n) GROUP BY 1) c
        WHERE r.moves_kind = 'pairs' AND octet_length(r.moves) > 8388608;
      UPDATE arena.results SET moves = moves_kind, moves_kind = 'packed'
        WHERE moves_kind IN ('text', 'pairs') AND octet_length(moves) > 8388608;
    `,
  },
  {
    version: 8,
    description: 'distributed jobs counted and failed in our own tables, so the queue library is read only through its public API',
    sql: `
      ALTER TABLE arena.match_queues ADD COLUMN completed integer NOT NULL DEFAULT 0;
      -- A job out of attempts: the queue (pg-boss) retries without limit, and a worker taking a job past the
      -- match's limit cancels it and writes why here.
      CREATE TABLE arena.job_failures (
        job_id    uuid PRIMARY KEY,
        match_id  bigint NOT NULL REFERENCES arena.matches(id) ON DELETE CASCADE,
        bot       text NOT NULL,
        reason    text NOT NULL,
        at        timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX job_failures_by_match ON arena.job_failures (match_id, at);
    `,
  },
  // The standing ladder (issue 24); its own file, so it can be renumbered at merge as one step.
  { version: 9, ...PG_LADDER_STEP },
  { version: 10, ...PG_REWRITES_STEP },
  // Seals of the seal bookkeeping, the optima and the ladder (issue 29); one line to renumber at a merge.
  { version: PG_HEAD_VERSION, ...PG_SEAL_HEAD_STEP },
  { version: 12, ...PG_BOT_SNAPSHOT_STEP },
  // Participants and web sessions (issue 32); one line to renumber at a merge.
  { version: 13, ...PG_PARTICIPANT_STEP },
  // Submissions, their versions in blocks, bots' owner and source (issue 32); one line to renumber at a merge.
  { version: 14, ...PG_SUBMISSION_STEP },
  // Each bot's stderr of each match (issue 32); its version is one constant to renumber at a merge.
  { version: STDERR_STEP_VERSION, ...PG_STDERR_STEP },
];

/** The schema version this code writes and understands. */
export const PG_SCHEMA_VERSION = PG_MIGRATIONS[PG_MIGRATIONS.length - 1].version;

/** Reads the version, or 0 when our schema is absent. Throws when `arena` exists but is not ours. */
async function readVersion(db: pg.ClientBase): Promise<number> {
  const ns = await db.query<{ has_version: boolean; tables: number }>(
    `SELECT to_regclass('${PG_SCHEMA}.schema_version') IS NOT NULL AS has_version,
            (SELECT count(*)::int FROM pg_tables WHERE schemaname = $1) AS tables`,
    [PG_SCHEMA],
  );
  const { has_version, tables } = ns.rows[0];
  if (!has_version) {
    if (tables > 0) throw new Error(`not a puzzle-arena database (schema "${PG_SCHEMA}" has tables but no version)`);
    return 0;
  }
  const v = await db.query<{ version: number }>(`SELECT version FROM ${PG_SCHEMA}.schema_version`);
  return v.rows[0]?.version ?? 0;
}

/**
 * Brings the database up to the last of `migrations` ({@link PG_SCHEMA_VERSION} by default). Returns the
 * version found before migrating. Throws an Error with a one-line message when the database is newer than
 * this code or its `arena` schema belongs to someone else.
 */
export async function migratePg(pool: pg.Pool, migrations: readonly PgMigration[] = PG_MIGRATIONS): Promise<number> {
  const target = migrations.length === 0 ? 0 : migrations[migrations.length - 1].version;
  const client = await pool.connect();
  try {
    // Fast path without the lock: every open after the first finds the schema current.
    const seen = await readVersion(client);
    if (seen > target) throw new Error(`database schema v${seen} is newer than this puzzle-arena (v${target})`);
    if (seen === target) return seen;
    await client.query('BEGIN');
    try {
      await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      // Re-read under the lock: another process may have migrated since the check above.
      const current = await readVersion(client);
      if (current > target) throw new Error(`database schema v${current} is newer than this puzzle-arena (v${target})`);
      if (current === 0) {
        await client.query(`CREATE SCHEMA IF NOT EXISTS ${PG_SCHEMA}`);
        await client.query(`CREATE TABLE ${PG_SCHEMA}.schema_version (version integer NOT NULL)`);
        await client.query(`INSERT INTO ${PG_SCHEMA}.schema_version VALUES (0)`);
      }
      for (const m of migrations) {
        if (m.version <= current) continue;
        await client.query(m.sql);
      }
      await client.query(`UPDATE ${PG_SCHEMA}.schema_version SET version = $1`, [target]);
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
    return seen;
  } finally {
    client.release();
  }
}
