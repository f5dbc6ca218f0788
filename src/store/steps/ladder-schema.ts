/**
 * The schema step of the standing ladder (bot versions, ladder games, the ladder's own state), for SQLite
 * and for PostgreSQL: one step each, appended to ./schema.ts and ./pg-schema.ts, so it can be renumbered at a
 * merge as one line. Timestamps are ISO text in both, so the two stores share their row decoding.
 */

/** The tables; `ns` is the schema prefix ("" for SQLite, "arena." for PostgreSQL). */
function ladderSql(ns: string, o: { strict: string; id: string; bigint: string }): string {
  return `
    CREATE TABLE ${ns}bot_versions (
      id          ${o.id},
      bot         text NOT NULL,
      number      integer NOT NULL,
      hash        text NOT NULL,
      command     text NOT NULL,
      folder      text,
      status      text NOT NULL CHECK (status IN ('new', 'checking', 'failed', 'placing', 'placed')),
      note        text,
      classes     text NOT NULL DEFAULT '[]',
      current     integer NOT NULL DEFAULT 1 CHECK (current IN (0, 1)),
      created_at  text NOT NULL,
      updated_at  text NOT NULL,
      UNIQUE (bot, hash),
      UNIQUE (bot, number)
    )${o.strict};
    CREATE TABLE ${ns}ladder_games (
      id            ${o.id},
      seed          text NOT NULL UNIQUE,
      puzzle_class  text NOT NULL,
      purpose       text NOT NULL CHECK (purpose IN ('placement', 'upkeep')),
      subject       ${o.bigint} REFERENCES ${ns}bot_versions(id),
      entries       text NOT NULL,
      why           text NOT NULL,
      match_id      ${o.bigint} REFERENCES ${ns}matches(id) ON DELETE SET NULL,
      created_at    text NOT NULL
    )${o.strict};
    CREATE INDEX ladder_games_by_match ON ${ns}ladder_games (match_id);
    -- A ladder game's match is found by its seed after a crash between creating the two.
    CREATE INDEX matches_by_seed ON ${ns}matches (seed);
    -- The ladder reads which matches are still being played on every change.
    CREATE INDEX matches_by_status ON ${ns}matches (status);
    CREATE TABLE ${ns}ladder_state (
      key    text PRIMARY KEY,
      value  text NOT NULL
    )${o.strict};
  `;
}

const DESCRIPTION = 'ladder: bot versions (hash of folder and command), ladder games, the ladder service state';

/**
 * A count of deleted results (ladder_state 'results-deleted'): results are otherwise only ever added, so a
 * reader that keeps what finished games contributed (src/stats/ladder-tallies.ts) knows from it when a purge
 * took some away and it must read everything again.
 */
const SQLITE_DELETIONS_SQL = `
  CREATE TRIGGER results_deleted AFTER DELETE ON results BEGIN
    INSERT OR IGNORE INTO ladder_state (key, value) VALUES ('results-deleted', '0');
    UPDATE ladder_state SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) WHERE key = 'results-deleted';
  END;
`;

/** The SQLite step. */
export const SQLITE_LADDER_STEP = { description: DESCRIPTION, sql: ladderSql('', { strict: ' STRICT', id: 'integer PRIMARY KEY', bigint: 'integer' }) + SQLITE_DELETIONS_SQL };

/**
 * PostgreSQL's change marker (SQLite has data_version; PostgreSQL has nothing as cheap): every statement
 * that writes what ratings and pages read bumps a counter of its own connection, in its own transaction, so
 * the sum becomes visible exactly when the write does. One row per connection, so concurrent workers never
 * wait on each other's counter; the ladder's own state (rewritten every turn) does not count.
 */
const PG_CHANGES_SQL = `
  CREATE TABLE arena.change_counts (
    pid  integer PRIMARY KEY,
    n    bigint NOT NULL
  );
  CREATE FUNCTION arena.count_change() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO arena.change_counts (pid, n) VALUES (pg_backend_pid(), 1)
      ON CONFLICT (pid) DO UPDATE SET n = arena.change_counts.n + 1;
    RETURN NULL;
  END $$;
  CREATE FUNCTION arena.count_deletion() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO arena.ladder_state (key, value) VALUES ('results-deleted', '1')
      ON CONFLICT (key) DO UPDATE SET value = (arena.ladder_state.value::bigint + 1)::text;
    RETURN NULL;
  END $$;
  CREATE TRIGGER results_deleted AFTER DELETE OR TRUNCATE ON arena.results FOR EACH STATEMENT EXECUTE FUNCTION arena.count_deletion();
  ${['matches', 'scrambles', 'results', 'bot_versions', 'ladder_games']
    .map((t) => `CREATE TRIGGER ${t}_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON arena.${t} FOR EACH STATEMENT EXECUTE FUNCTION arena.count_change();`)
    .join('\n  ')}
`;

/** The PostgreSQL step. */
export const PG_LADDER_STEP = { description: `${DESCRIPTION}; a change marker`, sql: ladderSql('arena.', { strict: '', id: 'bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY', bigint: 'bigint' }) + PG_CHANGES_SQL };
