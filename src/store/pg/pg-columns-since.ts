/**
 * {@link Store.summaryColumnsSince} for PostgreSQL (the SQLite reader and the shared row handling are in
 * ../columns-since.ts; this half is apart so that only a PostgreSQL store loads the driver).
 */
import type pg from 'pg';
import { columnsOfRows, rewritesOf, type SinceRow } from '../columns-since.ts';
import type { SharedSql } from '../sql-text.ts';
import type { ColumnsSince } from '../types.ts';
import { withReconnect, withTransaction } from './pg-connect.ts';

/** The PostgreSQL reader, with the count of results the snapshot holds (ids may commit out of order there). */
export async function pgColumnsSince(pool: pg.Pool, sql: SharedSql, afterId: number): Promise<ColumnsSince> {
  return withReconnect(
    () => withTransaction(pool, async (c) => {
      await c.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
      const head = await c.query<{ total: string; last: string }>(
        `SELECT (SELECT coalesce(sum(n), 0) FROM arena.result_counts)::text AS total, (${sql.lastResultId})::text AS last`,
      );
      const marks = await c.query<{ key: string; value: string }>(sql.rewriteMarks);
      const rows = await c.query<SinceRow>(sql.summariesSince, [afterId]);
      return {
        columns: columnsOfRows(rows.rows),
        lastId: Math.max(afterId, Number(head.rows[0].last)),
        rewrites: rewritesOf(marks.rows),
        total: Number(head.rows[0].total),
      };
    }),
    true,
  );
}
