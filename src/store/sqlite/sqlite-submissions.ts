/**
 * The SQLite store's submissions and stored versions (schema step in ../steps/submission-schema.ts):
 * statements prepared once, kept out of sqlite-store.ts. Every write is one IMMEDIATE transaction.
 */
import type Database from 'better-sqlite3';
import { runtimeText, SQLITE } from '../sql-rows.ts';
import { sharedSql, sqliteArgs } from '../sql-text.ts';
import { patchSql, submissionSql, toSubmission, type SubmissionRow } from '../submission-rows.ts';
import type { SubmissionStore } from '../submission-types.ts';
import { retryBusy } from './sqlite-busy.ts';

type Args = Record<number, unknown>;

/** The submissions' tables of one SQLite connection. */
export function sqliteSubmissions(db: Database.Database): SubmissionStore {
  const sql = submissionSql(SQLITE.table);
  const p = <R = unknown>(text: string) => db.prepare<[Args], R>(text);
  const add = p<SubmissionRow>(sql.add);
  const get = p<SubmissionRow>(sql.get);
  const list = p<SubmissionRow>(sql.list);
  const listOf = p<SubmissionRow>(sql.listOf);
  const ofBot = p<SubmissionRow>(sql.ofBot);
  const log = p<{ log: string | null }>(sql.log);
  const usage = p<{ recent: number; pending: number; bytes: number }>(sql.usage);
  const versionInfo = p<{ bytes: number; blocks: number }>(sql.versionInfo);
  const addVersion = p(sql.addVersion);
  const addBlock = p(sql.addBlock);
  const block = p<{ block: Buffer }>(sql.block);
  const dropBot = p(sql.dropBot);
  const requeue = p(sql.requeue);
  const addBot = p(sharedSql(SQLITE).addBot);
  const usageOf = (participant: string, since: string) => {
    const u = usage.get(sqliteArgs(participant, since))!;
    return { recent: Number(u.recent), pending: Number(u.pending), bytes: Number(u.bytes) };
  };
  const next = p<SubmissionRow>(`SELECT id FROM submissions WHERE status = 'received' ORDER BY id LIMIT 1`);
  return {
    async add(s, now, admit) {
      const row = await retryBusy(() =>
        db
          .transaction(() => {
            // IMMEDIATE: the write lock is held from this read to the insert.
            if (admit && !admit.ok(usageOf(s.participant, admit.since))) return undefined;
            return add.get(sqliteArgs(s.participant, s.bot, s.version, s.bytes, now));
          })
          .immediate(),
      );
      return row && toSubmission(row);
    },
    async get(id) {
      const row = get.get(sqliteArgs(id));
      return row && toSubmission(row);
    },
    async list(participant) {
      return (participant === undefined ? list.all({}) : listOf.all(sqliteArgs(participant))).map(toSubmission);
    },
    async ofBot(bot) {
      return ofBot.all(sqliteArgs(bot)).map(toSubmission);
    },
    async update(id, patch, now) {
      const { sets, values } = patchSql(patch, 3);
      const stmt = db.prepare(`UPDATE submissions SET updated_at = $2${sets.map((s) => `, ${s}`).join('')} WHERE id = $1`);
      await retryBusy(() => stmt.run(sqliteArgs(id, now, ...values)));
    },
    async log(id) {
      return log.get(sqliteArgs(id))?.log ?? undefined;
    },
    async claimNext(now) {
      return retryBusy(() =>
        db
          .transaction(() => {
            const row = next.get({});
            if (!row) return undefined;
            db.prepare(`UPDATE submissions SET status = 'building', updated_at = ? WHERE id = ?`).run(now, row.id);
            return toSubmission(get.get(sqliteArgs(row.id))!);
          })
          .immediate(),
      );
    },
    async requeueStale(before, now) {
      return (await retryBusy(() => requeue.run(sqliteArgs(before, now)))).changes;
    },
    async usage(participant, since) {
      return usageOf(participant, since);
    },
    async putVersion(hash, blocks, now) {
      const bytes = blocks.reduce((n, b) => n + b.length, 0);
      return retryBusy(() =>
        db
          .transaction(() => {
            if (addVersion.run(sqliteArgs(hash, bytes, blocks.length, now)).changes === 0) return false;
            blocks.forEach((b, seq) => addBlock.run(sqliteArgs(hash, seq, Buffer.from(b.buffer, b.byteOffset, b.length))));
            return true;
          })
          .immediate(),
      );
    },
    async versionInfo(hash) {
      const row = versionInfo.get(sqliteArgs(hash));
      return row && { bytes: Number(row.bytes), blocks: Number(row.blocks) };
    },
    async versionBlock(hash, seq) {
      const row = block.get(sqliteArgs(hash, seq));
      return row && new Uint8Array(row.block);
    },
    async putBot(bot, now) {
      await retryBusy(() =>
        db
          .transaction(() => {
            dropBot.run(sqliteArgs(bot.name));
            addBot.run(sqliteArgs(bot.name, bot.kind, bot.cmd ?? null, bot.cwd ?? null, SQLITE.bool(bot.stdio), bot.tokenHash ?? null, now, bot.snapshot ?? null, runtimeText(bot.runtime), bot.owner ?? null, bot.source ?? null));
          })
          .immediate(),
      );
    },
  };
}
