/** The participants' row as both SQL stores read it, and its one converter. */
import { dropEmpty } from './row-codec.ts';
import type { ParticipantByToken, ParticipantRecord } from './participant-types.ts';

/** A `participants` row: SQLite gives text and 0/1, PostgreSQL Dates and booleans. */
export interface ParticipantRow {
  name: string;
  admin: number | boolean;
  token_hash: string;
  created_at: string | Date;
  revoked_at: string | Date | null;
}

const iso = (v: string | Date | null): string | undefined => (v === null ? undefined : typeof v === 'string' ? v : v.toISOString());

/** A row as a participant, without its token hash. */
export function toParticipant(row: ParticipantRow): ParticipantRecord {
  return dropEmpty<ParticipantRecord>({ name: row.name, admin: Boolean(row.admin), createdAt: iso(row.created_at)!, revokedAt: iso(row.revoked_at) });
}

/** A row as a participant with its token hash. */
export function toParticipantByToken(row: ParticipantRow): ParticipantByToken {
  return { ...toParticipant(row), tokenHash: row.token_hash };
}
