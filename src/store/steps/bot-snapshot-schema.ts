/**
 * The schema step that stores, with each registered bot, what it plays and how it starts (issue 29): the
 * hash of the read-only snapshot of its folder, and the runtime resolved from paths it cannot write (JSON:
 * program, binds, pathDirs), checked again at every start. Its own file, so it can be renumbered at merge.
 */

const DESCRIPTION = "bots: the snapshot a bot plays and the runtime resolved at its registration";

/** The SQLite step. */
export const SQLITE_BOT_SNAPSHOT_STEP = {
  description: DESCRIPTION,
  sql: `
    ALTER TABLE bots ADD COLUMN snapshot TEXT;
    ALTER TABLE bots ADD COLUMN runtime TEXT;
  `,
};

/** The PostgreSQL step. */
export const PG_BOT_SNAPSHOT_STEP = {
  description: DESCRIPTION,
  sql: `
    ALTER TABLE arena.bots ADD COLUMN snapshot text, ADD COLUMN runtime text;
  `,
};
