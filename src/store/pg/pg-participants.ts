/**
 * The PostgreSQL store's participants and sessions (schema step in ../participant-schema.ts), kept out of
 * pg-store.ts. Reads are retried across a reconnect; writes that are not idempotent are not.
 */
import type pg from 'pg';
import { withReconnect, withTransaction } from './pg-connect.ts';
import { toParticipant, toParticipantByToken, type ParticipantRow } from '../participant-rows.ts';
import type { ParticipantStore } from '../participant-types.ts';

/** The participants' tables of a PostgreSQL pool. */
export function pgParticipants(pool: pg.Pool): ParticipantStore {
  const read = <R extends pg.QueryResultRow>(sql: string, params: unknown[]) => withReconnect(() => pool.query<R>(sql, params), true);
  return {
    async add(p) {
      const r = await pool.query(
        `INSERT INTO arena.participants (name, admin, token_hash) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING`,
        [p.name, p.admin, p.tokenHash],
      );
      return r.rowCount === 1;
    },
    async list() {
      return (await read<ParticipantRow>(`SELECT * FROM arena.participants ORDER BY name COLLATE "C"`, [])).rows.map(toParticipant);
    },
    async byTokenHash(tokenHash) {
      const row = (await read<ParticipantRow>(`SELECT * FROM arena.participants WHERE token_hash = $1`, [tokenHash])).rows[0];
      return row && toParticipantByToken(row);
    },
    async revoke(name, at) {
      return withTransaction(pool, async (c) => {
        const r = await c.query(`UPDATE arena.participants SET revoked_at = $1 WHERE name = $2 AND revoked_at IS NULL`, [at, name]);
        if (r.rowCount !== 1) return false;
        await c.query(`DELETE FROM arena.sessions WHERE participant = $1`, [name]);
        return true;
      });
    },
    async addSession(s, now) {
      await withTransaction(pool, async (c) => {
        await c.query(`DELETE FROM arena.sessions WHERE expires_at <= $1`, [now]);
        await c.query(`INSERT INTO arena.sessions (id_hash, participant, created_at, expires_at) VALUES ($1, $2, $3, $4)`, [s.idHash, s.participant, now, s.expiresAt]);
      });
    },
    async session(idHash, now) {
      const row = (
        await read<ParticipantRow>(
          `SELECT p.* FROM arena.sessions s JOIN arena.participants p ON p.name = s.participant
           WHERE s.id_hash = $1 AND s.expires_at > $2 AND p.revoked_at IS NULL`,
          [idHash, now],
        )
      ).rows[0];
      return row && toParticipant(row);
    },
    async removeSession(idHash) {
      return ((await pool.query(`DELETE FROM arena.sessions WHERE id_hash = $1`, [idHash])).rowCount ?? 0) === 1;
    },
  };
}
