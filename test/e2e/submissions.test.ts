/**
 * Submissions end to end on a real SQLite file with real intake, a real sandbox and the real CLI: alice's
 * archive is received, built (the copy stand-in: its manifest has no build command), registered as
 * `alice/astar` with her as owner, played by `arena match alice/astar …`, then checked and placed by a
 * running `arena ladder` on 3×3 while the submission's status follows the ladder. Its build folder deleted,
 * the bot is built again from the version stored in the database (a machine that never saw it), and
 * withdrawn by its owner only.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveBot } from '../../src/app/bots/bot-registry.ts';
import { addParticipant } from '../../src/app/participants/participants.ts';
import { listSubmissions, participantBots, runSubmissionBuilds, submissionOf, submitArchive, withdrawBot, type Caller } from '../../src/app/submissions/submissions.ts';
import { archiveOf } from '../helpers/submission-archives.ts';
import { ROOT, spawnArena, waitFor } from './helpers.ts';
import { reader, startLadder } from './ladder-helpers.ts';

const alice: Caller = { name: 'alice', admin: false };
const bob: Caller = { name: 'bob', admin: false };

/** The A* fixture bot as a participant's folder with its manifest. */
function astarSubmission(): string {
  const dir = mkdtempSync(join(tmpdir(), 'arena-sub-astar-'));
  copyFileSync(join(ROOT, 'test/fixtures/ladder/astar-bot.mjs'), join(dir, 'bot.mjs'));
  writeFileSync(join(dir, 'arena-bot.json'), JSON.stringify({ name: 'astar', run: `${process.execPath} bot.mjs`, transport: 'stdio' }));
  return dir;
}

/** A small ladder on 3×3 against one built-in bot. */
const FLAGS = ['--puzzle', 'sliding 3x3', '--bot', 'constructive', '--scrambles', '2', '--min-games', '2', '--max-games', '4', '--target', '400', '--budget', '0', '--seed', 'sub-e2e', '--time-limit', '5s', '--poll', '300ms'];

describe('submissions e2e - sqlite', () => {
  const children: ReturnType<typeof spawnArena>[] = [];
  afterAll(() => {
    for (const c of children) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
  });

  it('submissions - received, built, registered as alice/astar, played by arena match, placed by the running ladder; rebuilt from the database; withdrawn', { timeout: 900_000 }, async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'arena-sub-db-')), 'arena.db');
    const ctx = await reader(db);
    try {
      await addParticipant(ctx, { name: 'alice', admin: false });
      await addParticipant(ctx, { name: 'bob', admin: false });
      const archive = await archiveOf(astarSubmission());
      const t0 = performance.now();
      const sub = await submitArchive(ctx, alice, archive);
      const receiveMs = performance.now() - t0;
      if (!sub.ok) throw new Error(sub.reason);
      expect(sub.value).toMatchObject({ bot: 'alice/astar', status: 'received' });

      // The build queue, as `arena serve` runs it, until the submission is registered.
      const stop = new AbortController();
      const builds = runSubmissionBuilds(ctx, { signal: stop.signal, pollMs: 100 });
      const built = await waitFor(async () => {
        const s = await submissionOf(ctx, alice, sub.value.id);
        return s.ok && s.value.status !== 'received' && s.value.status !== 'building';
      }, 60_000);
      stop.abort();
      await builds;
      expect(built).toBe(true);
      const buildMs = performance.now() - t0 - receiveMs;
      const registered = await submissionOf(ctx, alice, sub.value.id);
      expect(registered).toMatchObject({ ok: true, value: { status: 'checking' } });
      const reg = await ctx.store.getBot('alice/astar');
      expect(reg).toMatchObject({ owner: 'alice', source: sub.value.version, stdio: true, cwd: join(`${db}.submissions`, 'built', sub.value.version!) });

      // Names with a slash: `arena match` plays it; `arena bot add` still refuses one.
      const match = await spawnArena(['match', 'alice/astar', 'constructive', '--size', '3', '--count', '2', '--seed', 's', '--db', db, '--json'], {}).done;
      expect(match.code, match.stderr).toBe(0);
      expect(match.stdout).toContain('"bot":"alice/astar"');
      const add = await spawnArena(['bot', 'add', 'bob/x', '--cmd', process.execPath, '--db', db], {}).done;
      expect(add.code).not.toBe(0);
      expect(add.stderr).toMatch(/bad bot name/);

      // The running ladder checks and places it; the submission's status is the ladder's.
      const ladder = startLadder(db, FLAGS, children);
      const t1 = performance.now();
      const seen = new Set<string>();
      const placed = await waitFor(async () => {
        const s = await submissionOf(ctx, alice, sub.value.id);
        if (s.ok) seen.add(s.value.status);
        return s.ok && (s.value.status === 'placed' || s.value.status === 'failed');
      }, 600_000);
      const placeMs = performance.now() - t1;
      ladder.child.kill('SIGINT');
      await ladder.done;
      console.log(`received in ${receiveMs.toFixed(0)} ms, built and registered in ${buildMs.toFixed(0)} ms, checked and placed ${(placeMs / 1000).toFixed(1)} s after the ladder started`);
      expect(placed, ladder.log()).toBe(true);
      const final = await submissionOf(ctx, alice, sub.value.id);
      expect(final, ladder.log()).toMatchObject({ ok: true, value: { status: 'placed', ladderVersion: 1 } });
      expect([...seen].every((s) => ['checking', 'placing', 'placed'].includes(s))).toBe(true);
      const page = await participantBots(ctx, undefined, 'alice');
      if (!page.ok) throw new Error(page.reason);
      expect(page.value[0]).toMatchObject({ name: 'alice/astar', registered: true, versions: [{ number: 1, status: 'placed' }] });
      expect(page.value[0]!.versions[0]!.games).toBeGreaterThan(0);
      expect(page.value[0]!.versions[0]!.submission).toBeUndefined();
      const own = await participantBots(ctx, alice, 'alice');
      expect(own.ok && own.value[0]!.versions[0]!.submission).toBe(sub.value.id);
      const lb = await spawnArena(['leaderboard', '--db', db], {}).done;
      expect(lb.code, lb.stderr).toBe(0);
      expect(lb.stdout).toContain('alice/astar');

      // A machine that never saw the version (its own submissions folder: another worker), and this one
      // once its build folder is gone: each builds it from the stored bytes, checked by hash, and plays it.
      const elsewhere = { ...ctx, dbLocation: join(mkdtempSync(join(tmpdir(), 'arena-sub-worker-')), 'worker.db') };
      const t2 = performance.now();
      const there = await resolveBot(elsewhere, 'alice/astar');
      console.log(`fetched, checked and built from the database in ${(performance.now() - t2).toFixed(0)} ms`);
      if (!there.ok) throw new Error(there.reason);
      expect(there.value.cwd).toBe(join(`${elsewhere.dbLocation}.submissions`, 'built', sub.value.version!));
      expect(there.value.snapshot?.hash).toBe(reg!.snapshot);
      const worker = mkdtempSync(join(tmpdir(), 'arena-sub-dir-'));
      const remote = await spawnArena(['match', 'alice/astar', 'constructive', '--size', '3', '--count', '1', '--seed', 'u', '--db', db, '--json'], { ARENA_SUBMISSIONS_DIR: worker }).done;
      expect(remote.code, remote.stderr).toBe(0);
      expect(existsSync(join(worker, 'built', sub.value.version!, 'bot.mjs'))).toBe(true);
      rmSync(reg!.cwd!, { recursive: true });
      rmSync(`${reg!.cwd!}.json`);
      const again = await spawnArena(['match', 'alice/astar', 'constructive', '--size', '3', '--count', '1', '--seed', 't', '--db', db, '--json'], {}).done;
      expect(again.code, again.stderr).toBe(0);
      expect(existsSync(reg!.cwd!)).toBe(true);

      expect(await withdrawBot(ctx, bob, 'alice/astar')).toMatchObject({ ok: false, code: 'forbidden' });
      expect(await withdrawBot(ctx, alice, 'alice/astar')).toMatchObject({ ok: true });
      expect(await ctx.store.getBot('alice/astar')).toBeUndefined();
      const listed = await listSubmissions(ctx, alice);
      expect(listed.ok && listed.value.map((s) => s.id)).toEqual([sub.value.id]);
    } finally {
      await ctx.close();
    }
  });
});
