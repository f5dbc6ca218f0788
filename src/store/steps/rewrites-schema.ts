/**
 * The schema step that lets a reader of every result keep what it read and add only new results
 * (src/app/records/rated-results.ts): results are only appended in play, so what else changes them must be
 * countable cheaply. Deletions were already counted (ladder_state 'results-deleted', ./ladder-schema.ts);
 * this step counts bound changes ('bounds-changed': the oracle raising a scramble's optimum or bound changes
 * every gap of its results) and, on PostgreSQL, the results themselves, because concurrent writers there can
 * commit ids out of order and a reader that only looks above the highest id it saw would miss a late one.
 * SQLite serialises writers, so its ids are committed in order.
 */

const DESCRIPTION = 'a count of changed scramble bounds, so a reader of every result can read only new ones';

const SQLITE_SQL = `
  CREATE TRIGGER bounds_changed AFTER UPDATE OF optimal, lower_bound ON scrambles
  WHEN OLD.optimal IS NOT NEW.optimal OR OLD.lower_bound IS NOT NEW.lower_bound BEGIN
    INSERT OR IGNORE INTO ladder_state (key, value) VALUES ('bounds-changed', '0');
    UPDATE ladder_state SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) WHERE key = 'bounds-changed';
  END;
`;

/** The SQLite step. */
export const SQLITE_REWRITES_STEP = { description: DESCRIPTION, sql: SQLITE_SQL };

// Result counts are kept per connection, like the change marker's (./ladder-schema.ts), so concurrent
// workers never wait on one row; the sum is the number of results in the reader's snapshot.
const PG_SQL = `
  CREATE FUNCTION arena.count_bound_change() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO arena.ladder_state (key, value) VALUES ('bounds-changed', '1')
      ON CONFLICT (key) DO UPDATE SET value = (arena.ladder_state.value::bigint + 1)::text;
    RETURN NULL;
  END $$;
  CREATE TRIGGER bounds_changed AFTER UPDATE OF optimal, lower_bound ON arena.scrambles
    FOR EACH STATEMENT EXECUTE FUNCTION arena.count_bound_change();
  CREATE TABLE arena.result_counts (
    pid  integer PRIMARY KEY,
    n    bigint NOT NULL
  );
  INSERT INTO arena.result_counts (pid, n) SELECT 0, count(*) FROM arena.results;
  CREATE FUNCTION arena.count_results_added() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO arena.result_counts (pid, n) SELECT pg_backend_pid(), count(*) FROM added
      ON CONFLICT (pid) DO UPDATE SET n = arena.result_counts.n + EXCLUDED.n;
    RETURN NULL;
  END $$;
  CREATE FUNCTION arena.count_results_removed() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO arena.result_counts (pid, n) SELECT pg_backend_pid(), -count(*) FROM removed
      ON CONFLICT (pid) DO UPDATE SET n = arena.result_counts.n + EXCLUDED.n;
    RETURN NULL;
  END $$;
  CREATE FUNCTION arena.reset_result_counts() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    DELETE FROM arena.result_counts;
    RETURN NULL;
  END $$;
  CREATE TRIGGER results_added AFTER INSERT ON arena.results REFERENCING NEW TABLE AS added
    FOR EACH STATEMENT EXECUTE FUNCTION arena.count_results_added();
  CREATE TRIGGER results_removed AFTER DELETE ON arena.results REFERENCING OLD TABLE AS removed
    FOR EACH STATEMENT EXECUTE FUNCTION arena.count_results_removed();
  CREATE TRIGGER results_truncated AFTER TRUNCATE ON arena.results
    FOR EACH STATEMENT EXECUTE FUNCTION arena.reset_result_counts();
`;

/** The PostgreSQL step. */
export const PG_REWRITES_STEP = { description: `${DESCRIPTION}; a count of results`, sql: PG_SQL };
