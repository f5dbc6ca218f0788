/**
 * Reads every result as {@link SummaryColumns} from SQLite in one aggregate query. Stepping 100,000 rows
 * through better-sqlite3 costs a JavaScript array (and strings for bot, class and verdict) per row, which
 * was most of the leaderboard's time; here SQLite joins the numbers of each column into one text
 * (`group_concat`, every row through the same aggregate step, so position i of every list is one result),
 * bots and classes become their rank in the sorted list of names, and each column is parsed once. SQLite prints a REAL in its shortest round-trip
 * form, so wall times come back bit for bit (the store contract test checks it).
 */
import type Database from 'better-sqlite3';
import { VERDICTS } from '../../core/verdict.ts';
import { allocateColumns, groupByScramble, type SummaryColumns } from '../../core/summary-columns.ts';

const VERDICT_CASE = `CASE r.verdict ${VERDICTS.map((v, i) => `WHEN '${v}' THEN ${i}`).join(' ')} ELSE 255 END`;

// Bots and classes are numbered by rank (the lists below read them in the same order). Every column is NOT
// NULL or coalesced: group_concat skips NULLs, which would shift a column.
const COLUMNS_SQL = `
  WITH b AS MATERIALIZED (SELECT bot, row_number() OVER (ORDER BY bot) - 1 AS i FROM (SELECT DISTINCT bot FROM results)),
       c AS MATERIALIZED (SELECT puzzle_class, row_number() OVER (ORDER BY puzzle_class) - 1 AS i
                          FROM (SELECT DISTINCT puzzle_class FROM scrambles))
  SELECT count(*) AS n, group_concat(r.scramble_id) AS scramble_id, group_concat(s.match_id) AS match_id,
         group_concat(b.i) AS bot, group_concat(c.i) AS cls, group_concat(${VERDICT_CASE}) AS verdict,
         group_concat(r.move_count) AS move_count, group_concat(r.wall_ms) AS wall_ms,
         group_concat(coalesce(s.optimal, -1)) AS optimal, group_concat(s.lower_bound) AS lower_bound
  FROM (SELECT r.scramble_id, r.bot, r.verdict, r.move_count, r.wall_ms FROM results r ORDER BY r.scramble_id) r
  JOIN scrambles s ON s.id = r.scramble_id JOIN b ON b.bot = r.bot JOIN c ON c.puzzle_class = s.puzzle_class`;

interface ColumnsRow {
  n: number;
  scramble_id: string | null;
  match_id: string | null;
  bot: string | null;
  cls: string | null;
  verdict: string | null;
  move_count: string | null;
  wall_ms: string | null;
  optimal: string | null;
  lower_bound: string | null;
}

/** Prepares the reader once per connection; each call reads one consistent snapshot. */
export function summaryColumnsReader(db: Database.Database): () => SummaryColumns {
  const columns = db.prepare<[], ColumnsRow>(COLUMNS_SQL);
  // The same order as dense_rank's (SQLite's BINARY collation on both sides).
  const bots = db.prepare<[], string>(`SELECT DISTINCT bot FROM results ORDER BY bot`).pluck();
  const classes = db.prepare<[], string>(`SELECT DISTINCT puzzle_class FROM scrambles ORDER BY puzzle_class`).pluck();
  // One read transaction: the names and the rows come from the same snapshot even while a match writes.
  return db.transaction(() => {
    const row = columns.get()!;
    const c = allocateColumns(row.n, bots.all(), classes.all());
    if (row.n === 0) return c;
    fill(c.scrambleId, row.scramble_id);
    fill(c.matchId, row.match_id);
    fill(c.bot, row.bot);
    fill(c.puzzleClass, row.cls);
    fill(c.verdict, row.verdict);
    fill(c.moveCount, row.move_count);
    fill(c.wallMs, row.wall_ms);
    fill(c.optimal, row.optimal);
    fill(c.lowerBound, row.lower_bound);
    // The rows come in scramble order (the unique index's); SQLite does not promise that an aggregate keeps it.
    return groupByScramble(c);
  });
}

function fill(into: Int32Array | Uint8Array | Float64Array, list: string | null): void {
  const values = JSON.parse(`[${list ?? ''}]`) as number[];
  if (values.length !== into.length) throw new Error(`summary columns: ${values.length} values for ${into.length} rows`);
  into.set(values);
}

/**
 * A token that differs after any write committed to the database since the last call saw it: SQLite's
 * `data_version` moves when another connection (another process: a match being played) commits, and
 * `total_changes()` counts this connection's own changed rows. Both are read without touching a table.
 */
export function changeMarkerReader(db: Database.Database): () => string {
  const version = db.prepare<[], number>('PRAGMA data_version').pluck();
  const changes = db.prepare<[], number>('SELECT total_changes()').pluck();
  return () => `${version.get()}:${changes.get()}`;
}
