/**
 * Submissions on PostgreSQL: a version stored in the database's blocks is built by the server's build queue
 * in its own submissions folder, then `arena match` in a process with another folder (a machine that never
 * saw it) fetches it by hash, checks it, builds it there and plays it. The two-worker ladder test is the
 * lead's (issue 32's "Done when").
 */
import { copyFileSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addParticipant } from '../../src/app/participants/participants.ts';
import { runSubmissionBuilds, submissionOf, submitArchive, type Caller } from '../../src/app/submissions/submissions.ts';
import { skipPgTests, startPgServer, type PgServer } from '../helpers/pg-server.ts';
import { archiveOf } from '../helpers/submission-archives.ts';
import { ROOT, spawnArena, waitFor } from './helpers.ts';
import { reader } from './ladder-helpers.ts';

const alice: Caller = { name: 'alice', admin: false };

describe.skipIf(skipPgTests())('submissions e2e - postgres', () => {
  let server: PgServer;
  const saved = process.env.ARENA_SUBMISSIONS_DIR;
  beforeAll(async () => {
    server = await startPgServer();
  });
  afterAll(async () => {
    if (saved === undefined) delete process.env.ARENA_SUBMISSIONS_DIR;
    else process.env.ARENA_SUBMISSIONS_DIR = saved;
    await server?.destroy();
  });

  it('submissions - built by the server from the database, then fetched, checked and built by a process that never saw it', { timeout: 300_000 }, async () => {
    const url = await server.createDatabase('submissions');
    const serverDir = mkdtempSync(join(tmpdir(), 'arena-sub-server-'));
    const workerDir = mkdtempSync(join(tmpdir(), 'arena-sub-worker-'));
    process.env.ARENA_SUBMISSIONS_DIR = serverDir;
    const ctx = await reader(url);
    try {
      await addParticipant(ctx, { name: 'alice', admin: false });
      const folder = mkdtempSync(join(tmpdir(), 'arena-sub-astar-'));
      copyFileSync(join(ROOT, 'test/fixtures/ladder/astar-bot.mjs'), join(folder, 'bot.mjs'));
      writeFileSync(join(folder, 'arena-bot.json'), JSON.stringify({ name: 'astar', run: `${process.execPath} bot.mjs`, transport: 'stdio' }));
      const sub = await submitArchive(ctx, alice, await archiveOf(folder));
      if (!sub.ok) throw new Error(sub.reason);
      const stop = new AbortController();
      const builds = runSubmissionBuilds(ctx, { signal: stop.signal, pollMs: 100 });
      const built = await waitFor(async () => {
        const s = await submissionOf(ctx, alice, sub.value.id);
        return s.ok && s.value.status === 'checking';
      }, 60_000);
      stop.abort();
      await builds;
      expect(built).toBe(true);
      expect((await ctx.store.getBot('alice/astar'))?.cwd).toBe(join(serverDir, 'built', sub.value.version!));

      const played = await spawnArena(['match', 'alice/astar', 'constructive', '--size', '3', '--count', '2', '--seed', 'p', '--db', url, '--json'], { ARENA_SUBMISSIONS_DIR: workerDir }).done;
      expect(played.code, played.stderr).toBe(0);
      expect(played.stdout).toContain('"bot":"alice/astar"');
      expect(existsSync(join(workerDir, 'built', sub.value.version!, 'bot.mjs'))).toBe(true);
    } finally {
      await ctx.close();
    }
  });
});
