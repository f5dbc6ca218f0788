/** The submissions' row as both SQL stores read it, and its one converter. */
import { dropEmpty } from './row-codec.ts';
import type { StoredSubmissionStatus, SubmissionRecord } from './submission-types.ts';

/** A `submissions` row (without its log): SQLite gives text, PostgreSQL Dates and bigint strings. */
export interface SubmissionRow {
  id: number | string;
  participant: string;
  bot: string;
  version: string;
  status: StoredSubmissionStatus;
  reason: string | null;
  bytes: number | string;
  ladder_hash: string | null;
  created_at: string | Date;
  updated_at: string | Date;
}

/** Every column but the log, for the reads that do not show it. */
export const SUBMISSION_COLUMNS = 'id, participant, bot, version, status, reason, bytes, ladder_hash, created_at, updated_at';

const iso = (v: string | Date): string => (typeof v === 'string' ? v : v.toISOString());

/** A row as a record. */
export function toSubmission(row: SubmissionRow): SubmissionRecord {
  return dropEmpty<SubmissionRecord>({
    id: Number(row.id),
    participant: row.participant,
    bot: row.bot,
    version: row.version,
    status: row.status,
    reason: row.reason,
    bytes: Number(row.bytes),
    ladderHash: row.ladder_hash,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  });
}

/** The SET clause of a patch, with `$n` placeholders from `first`, and its values. */
export function patchSql(patch: { status?: string; reason?: string | null; log?: string | null; ladderHash?: string | null }, first: number): { sets: string[]; values: unknown[] } {
  const sets: string[] = [];
  const values: unknown[] = [];
  const cols: [keyof typeof patch, string][] = [['status', 'status'], ['reason', 'reason'], ['log', 'log'], ['ladderHash', 'ladder_hash']];
  for (const [key, col] of cols) {
    if (patch[key] === undefined) continue;
    values.push(patch[key]);
    sets.push(`${col} = $${first + values.length - 1}`);
  }
  return { sets, values };
}

/** The statements both SQL stores run, with `$n` placeholders (SQLite binds them through sqliteArgs). */
export function submissionSql(table: (name: string) => string) {
  const s = table('submissions');
  return {
    add: `INSERT INTO ${s} (participant, bot, version, status, bytes, created_at, updated_at) VALUES ($1, $2, $3, 'received', $4, $5, $5) RETURNING ${SUBMISSION_COLUMNS}`,
    get: `SELECT ${SUBMISSION_COLUMNS} FROM ${s} WHERE id = $1`,
    list: `SELECT ${SUBMISSION_COLUMNS} FROM ${s} ORDER BY id DESC`,
    listOf: `SELECT ${SUBMISSION_COLUMNS} FROM ${s} WHERE participant = $1 ORDER BY id DESC`,
    ofBot: `SELECT ${SUBMISSION_COLUMNS} FROM ${s} WHERE bot = $1 ORDER BY id DESC`,
    log: `SELECT log FROM ${s} WHERE id = $1`,
    usage: `SELECT
        (SELECT count(*) FROM ${s} WHERE participant = $1 AND created_at > $2) AS recent,
        (SELECT count(*) FROM ${s} WHERE participant = $1 AND status IN ('received', 'building')) AS pending,
        (SELECT coalesce(sum(bytes), 0) FROM (SELECT DISTINCT version, bytes FROM ${s} WHERE participant = $1) AS v) AS bytes`,
    versionInfo: `SELECT bytes, blocks FROM ${table('versions')} WHERE hash = $1`,
    addVersion: `INSERT INTO ${table('versions')} (hash, bytes, blocks, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (hash) DO NOTHING`,
    addBlock: `INSERT INTO ${table('version_blocks')} (hash, seq, block) VALUES ($1, $2, $3)`,
    block: `SELECT block FROM ${table('version_blocks')} WHERE hash = $1 AND seq = $2`,
    dropBot: `DELETE FROM ${table('bots')} WHERE name = $1`,
    requeue: `UPDATE ${s} SET status = 'received', reason = 'its builder stopped; built again', updated_at = $2 WHERE status = 'building' AND updated_at < $1`,
  };
}
