/**
 * An in-memory stand-in of the submission service (src/app/submissions/submissions.ts) for unit tests of
 * its doors: ownership as the contract says, and a refusal chosen by the archive's text (`refuse:<code>`).
 */
import { readFileSync } from 'node:fs';
import type { Caller, SubmissionView } from '../../src/app/submissions/submissions.ts';
import { ok, reject, type Result } from '../../src/core/types.ts';
import type { SubmissionServices } from '../../src/web/submission-services.ts';

/** An in-memory submission service: ownership as the contract says, and a refusal chosen per archive text. */
export function fakeSubmissions(o: { botOf?: (caller: Caller) => string } = {}): SubmissionServices & { archives: { path: string; bytes: Buffer }[]; views: SubmissionView[]; logs: Map<number, string> } {
  const views: SubmissionView[] = [];
  const archives: { path: string; bytes: Buffer }[] = [];
  const logs = new Map<number, string>();
  const mayRead = (c: Caller, s: SubmissionView) => c.admin || c.name === s.participant;
  const find = (c: Caller, id: number): Result<SubmissionView> => {
    const s = views.find((v) => v.id === id);
    if (!s) return reject('not-found', `no submission ${id}`);
    return mayRead(c, s) ? ok(s) : reject('forbidden', `submission ${id} is not yours`);
  };
  return {
    archives,
    views,
    logs,
    async submitArchive(caller, archive) {
      const bytes = readFileSync(archive);
      archives.push({ path: archive, bytes });
      const text = bytes.toString('latin1');
      // The archive's text says which refusal to answer with, so each code's status can be seen.
      for (const code of ['forbidden', 'not-found', 'limit', 'too-large', 'manifest']) if (text === `refuse:${code}`) return reject(code, `refused with ${code}`);
      const at = new Date().toISOString();
      const v: SubmissionView = { id: views.length + 1, participant: caller.name, bot: o.botOf?.(caller) ?? `${caller.name}/astar`, status: 'received', createdAt: at, updatedAt: at };
      views.push(v);
      return ok(v);
    },
    async submissionOf(caller, id) {
      return find(caller, id);
    },
    async buildLogOf(caller, id) {
      const s = find(caller, id);
      return s.ok ? ok(logs.get(id) ?? '') : s;
    },
    async listSubmissions(caller, participant) {
      const whose = participant ?? caller.name;
      if (whose !== caller.name && !caller.admin) return reject('forbidden', `the submissions of ${whose} are not yours`);
      return ok(views.filter((v) => v.participant === whose).reverse());
    },
    async withdrawBot(caller, bot) {
      const owner = bot.split('/')[0];
      if (owner !== caller.name && !caller.admin) return reject('forbidden', `${bot} is not yours`);
      return views.some((v) => v.bot === bot) ? ok({ bot }) : reject('not-found', `no submitted bot ${bot}`);
    },
    async toolchains() {
      return [{ name: 'gcc', version: '12.2.0' }];
    },
  };
}

