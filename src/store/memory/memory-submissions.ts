/** The in-memory store's submissions and stored versions, for unit tests: the SQL stores' behaviour in maps. */
import type { BotRecord } from '../types.ts';
import type { SubmissionRecord, SubmissionStore, SubmissionUsage } from '../submission-types.ts';

/** Submissions and versions held in maps; `putBot` replaces a registration in the store's own bot map. */
export function memorySubmissions(putBot: (bot: BotRecord) => void): SubmissionStore {
  const rows = new Map<number, SubmissionRecord & { log?: string }>();
  const versions = new Map<string, Uint8Array[]>();
  let nextId = 1;
  const plain = ({ log: _log, ...s }: SubmissionRecord & { log?: string }): SubmissionRecord => ({ ...s });
  const usageOf = (participant: string, since: string): SubmissionUsage => {
    const own = [...rows.values()].filter((s) => s.participant === participant);
    const distinct = new Map(own.map((s) => [s.version, s.bytes]));
    return {
      recent: own.filter((s) => s.createdAt > since).length,
      pending: own.filter((s) => s.status === 'received' || s.status === 'building').length,
      bytes: [...distinct.values()].reduce((n, b) => n + b, 0),
    };
  };
  const newestFirst = (pick: (s: SubmissionRecord) => boolean) => [...rows.values()].filter(pick).sort((a, b) => b.id - a.id).map(plain);
  return {
    async add(s, now, admit) {
      if (admit && !admit.ok(usageOf(s.participant, admit.since))) return undefined;
      const row: SubmissionRecord = { id: nextId++, participant: s.participant, bot: s.bot, version: s.version, status: 'received', bytes: s.bytes, createdAt: now, updatedAt: now };
      rows.set(row.id, row);
      return { ...row };
    },
    async get(id) {
      const row = rows.get(id);
      return row && plain(row);
    },
    async list(participant) {
      return newestFirst((s) => participant === undefined || s.participant === participant);
    },
    async ofBot(bot) {
      return newestFirst((s) => s.bot === bot);
    },
    async update(id, patch, now) {
      const row = rows.get(id);
      if (!row) return;
      const next: Record<string, unknown> = { ...row, updatedAt: now };
      for (const key of ['status', 'reason', 'log', 'ladderHash'] as const) {
        if (patch[key] === null) delete next[key];
        else if (patch[key] !== undefined) next[key] = patch[key];
      }
      rows.set(id, next as unknown as SubmissionRecord);
    },
    async log(id) {
      return rows.get(id)?.log;
    },
    async claimNext(now) {
      const row = [...rows.values()].filter((s) => s.status === 'received').sort((a, b) => a.id - b.id)[0];
      if (!row) return undefined;
      rows.set(row.id, { ...row, status: 'building', updatedAt: now });
      return plain(rows.get(row.id)!);
    },
    async requeueStale(before, now) {
      const stale = [...rows.values()].filter((s) => s.status === 'building' && s.updatedAt < before);
      for (const s of stale) rows.set(s.id, { ...s, status: 'received', reason: 'its builder stopped; built again', updatedAt: now });
      return stale.length;
    },
    async usage(participant, since) {
      return usageOf(participant, since);
    },
    async putVersion(hash, blocks) {
      if (versions.has(hash)) return false;
      versions.set(hash, blocks.map((b) => new Uint8Array(b)));
      return true;
    },
    async versionInfo(hash) {
      const blocks = versions.get(hash);
      return blocks && { bytes: blocks.reduce((n, b) => n + b.length, 0), blocks: blocks.length };
    },
    async versionBlock(hash, seq) {
      const b = versions.get(hash)?.[seq];
      return b && new Uint8Array(b);
    },
    async putBot(bot, now) {
      putBot({ ...bot, createdAt: now });
    },
  };
}
