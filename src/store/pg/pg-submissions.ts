/**
 * The PostgreSQL store's submissions and stored versions (schema step in ../steps/submission-schema.ts),
 * kept out of pg-store.ts. Reads are retried across a reconnect; writes that are not idempotent are not.
 * Taking the next build locks its row with SKIP LOCKED, so two servers of one database never build one
 * submission twice.
 */
import type pg from 'pg';
import { withReconnect, withTransaction } from './pg-connect.ts';
import { POSTGRES, runtimeText } from '../sql-rows.ts';
import { sharedSql } from '../sql-text.ts';
import { patchSql, SUBMISSION_COLUMNS, submissionSql, toSubmission, type SubmissionRow } from '../submission-rows.ts';
import type { SubmissionStore, SubmissionUsage } from '../submission-types.ts';

type UsageRow = { recent: string; pending: string; bytes: string };
const usageOf = (u: UsageRow): SubmissionUsage => ({ recent: Number(u.recent), pending: Number(u.pending), bytes: Number(u.bytes) });

/** The submissions' tables of a PostgreSQL pool. */
export function pgSubmissions(pool: pg.Pool): SubmissionStore {
  const sql = submissionSql(POSTGRES.table);
  const addBot = sharedSql(POSTGRES).addBot;
  const read = <R extends pg.QueryResultRow>(text: string, params: unknown[]) => withReconnect(() => pool.query<R>(text, params), true);
  return {
    async add(s, now, admit) {
      return withTransaction(pool, async (c) => {
        if (admit) {
          // One participant's submissions are admitted one at a time, by a lock held to the commit.
          await c.query(`SELECT pg_advisory_xact_lock(hashtext('submission:' || $1))`, [s.participant]);
          if (!admit.ok(usageOf((await c.query<UsageRow>(sql.usage, [s.participant, admit.since])).rows[0]!))) return undefined;
        }
        return toSubmission((await c.query<SubmissionRow>(sql.add, [s.participant, s.bot, s.version, s.bytes, now])).rows[0]!);
      });
    },
    async get(id) {
      const row = (await read<SubmissionRow>(sql.get, [id])).rows[0];
      return row && toSubmission(row);
    },
    async list(participant) {
      const r = participant === undefined ? await read<SubmissionRow>(sql.list, []) : await read<SubmissionRow>(sql.listOf, [participant]);
      return r.rows.map(toSubmission);
    },
    async ofBot(bot) {
      return (await read<SubmissionRow>(sql.ofBot, [bot])).rows.map(toSubmission);
    },
    async update(id, patch, now) {
      const { sets, values } = patchSql(patch, 3);
      await withReconnect(() => pool.query(`UPDATE arena.submissions SET updated_at = $2${sets.map((s) => `, ${s}`).join('')} WHERE id = $1`, [id, now, ...values]), true);
    },
    async log(id) {
      return (await read<{ log: string | null }>(sql.log, [id])).rows[0]?.log ?? undefined;
    },
    async claimNext(now) {
      const { rows } = await pool.query<SubmissionRow>(
        `UPDATE arena.submissions SET status = 'building', updated_at = $1
         WHERE id = (SELECT id FROM arena.submissions WHERE status = 'received' ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
         RETURNING ${SUBMISSION_COLUMNS}`,
        [now],
      );
      return rows[0] && toSubmission(rows[0]);
    },
    async requeueStale(before, now) {
      return (await pool.query(sql.requeue, [before, now])).rowCount ?? 0;
    },
    async usage(participant, since) {
      return usageOf((await read<UsageRow>(sql.usage, [participant, since])).rows[0]!);
    },
    async putVersion(hash, blocks, now) {
      const bytes = blocks.reduce((n, b) => n + b.length, 0);
      return withTransaction(pool, async (c) => {
        const r = await c.query(sql.addVersion, [hash, bytes, blocks.length, now]);
        if (r.rowCount !== 1) return false;
        for (let seq = 0; seq < blocks.length; seq++) await c.query(sql.addBlock, [hash, seq, Buffer.from(blocks[seq]!)]);
        return true;
      });
    },
    async versionInfo(hash) {
      const row = (await read<{ bytes: string; blocks: number }>(sql.versionInfo, [hash])).rows[0];
      return row && { bytes: Number(row.bytes), blocks: Number(row.blocks) };
    },
    async versionBlock(hash, seq) {
      const row = (await read<{ block: Buffer }>(sql.block, [hash, seq])).rows[0];
      return row && new Uint8Array(row.block);
    },
    async putBot(bot, now) {
      await withTransaction(pool, async (c) => {
        await c.query(sql.dropBot, [bot.name]);
        await c.query(addBot, [bot.name, bot.kind, bot.cmd ?? null, bot.cwd ?? null, bot.stdio ?? null, bot.tokenHash ?? null, now, bot.snapshot ?? null, runtimeText(bot.runtime), bot.owner ?? null, bot.source ?? null]);
      });
    },
  };
}
