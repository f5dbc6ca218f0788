/** The in-memory store's participants and sessions, for unit tests: the SQL stores' behaviour in maps. */
import type { NewSession, ParticipantByToken, ParticipantRecord, ParticipantStore } from '../participant-types.ts';

/** Names in code-unit order, as the SQL stores sort them (byte order). */
const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Participants and sessions held in maps. */
export function memoryParticipants(): ParticipantStore {
  const people = new Map<string, ParticipantByToken>();
  const sessions = new Map<string, NewSession>();
  const plain = ({ tokenHash: _hash, ...p }: ParticipantByToken): ParticipantRecord => ({ ...p });
  return {
    async add(p) {
      if (people.has(p.name) || [...people.values()].some((q) => q.tokenHash === p.tokenHash)) return false;
      people.set(p.name, { name: p.name, admin: p.admin, tokenHash: p.tokenHash, createdAt: new Date().toISOString() });
      return true;
    },
    async list() {
      return [...people.values()].sort((a, b) => compareText(a.name, b.name)).map(plain);
    },
    async byTokenHash(tokenHash) {
      const p = [...people.values()].find((q) => q.tokenHash === tokenHash);
      return p && { ...p };
    },
    async revoke(name, at) {
      const p = people.get(name);
      if (!p || p.revokedAt !== undefined) return false;
      people.set(name, { ...p, revokedAt: at });
      for (const [id, s] of sessions) if (s.participant === name) sessions.delete(id);
      return true;
    },
    async addSession(s, now) {
      for (const [id, old] of sessions) if (old.expiresAt <= now) sessions.delete(id);
      sessions.set(s.idHash, { ...s });
    },
    async session(idHash, now) {
      const s = sessions.get(idHash);
      const p = s && s.expiresAt > now ? people.get(s.participant) : undefined;
      return p && p.revokedAt === undefined ? plain(p) : undefined;
    },
    async removeSession(idHash) {
      return sessions.delete(idHash);
    },
  };
}
