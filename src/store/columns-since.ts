/**
 * {@link Store.summaryColumnsSince} for the SQL stores: the results above an id, with the marks that say
 * whether appending them is enough, read in one snapshot (an SQLite read transaction; one PostgreSQL
 * REPEATABLE READ transaction), so a write landing between the reads cannot pair new marks with old rows.
 * The PostgreSQL reader is pg/pg-columns-since.ts, so that opening a SQLite store never loads the driver.
 */
import type Database from 'better-sqlite3';
import { columnsOf, type ColumnSource, type SummaryColumns } from '../core/summary-columns.ts';
import type { Verdict } from '../core/verdict.ts';
import { makeBound } from './row-codec.ts';
import { sqliteArgs, type SharedSql } from './sql-text.ts';
import type { ColumnsSince } from './types.ts';

/** A row of `summariesSince`. */
export interface SinceRow {
  id: number;
  scramble_id: number;
  bot: string;
  verdict: Verdict;
  move_count: number;
  wall_ms: number;
  match_id: number;
  puzzle_class: string;
  optimal: number | null;
  lower_bound: number;
}

/** The summary columns of `summariesSince` rows. */
export function columnsOfRows(rows: readonly SinceRow[]): SummaryColumns {
  return columnsOf(
    rows.map((r): ColumnSource => ({
      scrambleId: Number(r.scramble_id),
      matchId: Number(r.match_id),
      bot: r.bot,
      puzzleClass: r.puzzle_class,
      verdict: r.verdict,
      moveCount: r.move_count,
      wallMs: r.wall_ms,
      bound: makeBound(r.optimal, r.lower_bound),
    })),
  );
}

/** The rewrite marks as one comparable text. */
export function rewritesOf(marks: readonly { key: string; value: string }[]): string {
  return marks.map((m) => `${m.key}=${m.value}`).join(',');
}

/**
 * The SQLite reader: a full read (`afterId` 0) goes through `readAll` (the bulk columns read), a read
 * after an id through the row statement (a few new rows).
 */
export function sqliteColumnsSince(db: Database.Database, sql: SharedSql, readAll: () => SummaryColumns): (afterId: number) => ColumnsSince {
  const since = db.prepare<Record<number, unknown>, SinceRow>(sql.summariesSince);
  const marks = db.prepare<[], { key: string; value: string }>(sql.rewriteMarks);
  const last = db.prepare<[], number>(sql.lastResultId).pluck();
  return db.transaction((afterId: number): ColumnsSince => {
    const rewrites = rewritesOf(marks.all());
    const lastId = Math.max(afterId, last.get() ?? 0);
    const columns = afterId === 0 ? readAll() : columnsOfRows(since.all(sqliteArgs(afterId)));
    return { columns, lastId, rewrites };
  });
}
