/**
 * The SQLite store's participants and sessions (schema step in ../participant-schema.ts): statements
 * prepared once, kept out of sqlite-store.ts. Times are ISO text, which sorts as time.
 */
import type Database from 'better-sqlite3';
import { toParticipant, toParticipantByToken, type ParticipantRow } from '../participant-rows.ts';
import type { ParticipantStore } from '../participant-types.ts';
import { nowIso } from '../row-codec.ts';

/** The participants' tables of one SQLite connection. */
export function sqliteParticipants(db: Database.Database): ParticipantStore {
  const insert = db.prepare(`INSERT INTO participants (name, admin, token_hash, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (name) DO NOTHING`);
  const all = db.prepare<[], ParticipantRow>(`SELECT * FROM participants ORDER BY name`);
  const byHash = db.prepare<[string], ParticipantRow>(`SELECT * FROM participants WHERE token_hash = ?`);
  const revoke = db.prepare(`UPDATE participants SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL`);
  const endAll = db.prepare(`DELETE FROM sessions WHERE participant = ?`);
  const expire = db.prepare(`DELETE FROM sessions WHERE expires_at <= ?`);
  const addSession = db.prepare(`INSERT INTO sessions (id_hash, participant, created_at, expires_at) VALUES (?, ?, ?, ?)`);
  const live = db.prepare<[string, string], ParticipantRow>(
    `SELECT p.* FROM sessions s JOIN participants p ON p.name = s.participant
     WHERE s.id_hash = ? AND s.expires_at > ? AND p.revoked_at IS NULL`,
  );
  const end = db.prepare(`DELETE FROM sessions WHERE id_hash = ?`);
  return {
    async add(p) {
      return insert.run(p.name, p.admin ? 1 : 0, p.tokenHash, nowIso()).changes === 1;
    },
    async list() {
      return all.all().map(toParticipant);
    },
    async byTokenHash(tokenHash) {
      const row = byHash.get(tokenHash);
      return row && toParticipantByToken(row);
    },
    async revoke(name, at) {
      return db.transaction(() => {
        const done = revoke.run(at, name).changes === 1;
        if (done) endAll.run(name);
        return done;
      }).immediate();
    },
    async addSession(s, now) {
      db.transaction(() => {
        expire.run(now);
        addSession.run(s.idHash, s.participant, now, s.expiresAt);
      }).immediate();
    },
    async session(idHash, now) {
      const row = live.get(idHash, now);
      return row && toParticipant(row);
    },
    async removeSession(idHash) {
      return end.run(idHash).changes === 1;
    },
  };
}
