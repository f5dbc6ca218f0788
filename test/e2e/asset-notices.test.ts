/**
 * The missing-asset notice at every door that starts a built-in bot for play, end to end with real
 * processes (a copy of the checkout with the tiny-tables bot, whose 1 MB asset builds in seconds): `arena
 * bot check`, `arena ladder` (once per bot, not once per game) and `arena worker` on a real PostgreSQL
 * name the bot and `arena prepare tiny-tables` when its tables are not in the store, say nothing when they
 * are, and never block the bot (`arena match` is covered in prepare.test.ts).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { arenaIn, checkoutCopy, NOTICE_MISSING_LINE, startArenaIn, TINY_MISSING_LINE, type Ran } from '../helpers/asset-checkout.ts';
import { skipPgTests, startPgServer, type PgServer } from '../helpers/pg-server.ts';
import { waitFor } from './helpers.ts';

let root: string;
let work: string;
/** The asset store with tiny-tables' tables built, and an empty one. */
let prepared: string;
let empty: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  root = checkoutCopy();
  work = mkdtempSync(join(tmpdir(), 'arena-notices-work-'));
  prepared = join(work, 'prepared');
  empty = join(work, 'empty');
  mkdirSync(empty);
  const built = await arenaIn(root, work, ['prepare', 'tiny-tables', 'tiny-notice'], prepared);
  if (built.code !== 0) throw new Error(`arena prepare tiny-tables failed: ${built.stderr}`);
}, 240_000);
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

/** Starts the copy's arena with `store`, stopped (SIGINT) once its stderr matches `until`. */
function runUntil(args: string[], store: string, until: RegExp): Promise<Ran> {
  const run = startArenaIn(root, work, args, store, (err, child) => {
    if (until.test(err) && child.exitCode === null) child.kill('SIGINT');
  });
  children.push(run.child);
  return run.done;
}

const count = (text: string, line: string): number => text.split('\n').filter((l) => l.includes(line)).length;
const noStack = (r: Ran) => expect(r.stderr).not.toMatch(/\n\s+at /);

describe('missing-asset notices', () => {
  it('asset notices - bot check names the missing tables and the command before the bot starts, and still checks it; nothing when they are built', async () => {
    const missing = await arenaIn(root, work, ['bot', 'check', 'tiny-tables', '--db', join(work, 'check-a.db')], empty);
    noStack(missing);
    expect(count(missing.stderr, TINY_MISSING_LINE)).toBe(1);
    // The check ran all the same (its lines are on stdout).
    expect(missing.stdout).toMatch(/handshake|hello/);
    const present = await arenaIn(root, work, ['bot', 'check', 'tiny-tables', '--db', join(work, 'check-b.db')], prepared);
    noStack(present);
    expect(present.stdout).toMatch(/handshake|hello/);
    expect(present.stderr).not.toContain('are not built');
    // A built-in bot that declares nothing: no line either.
    const none = await arenaIn(root, work, ['bot', 'check', 'constructive', '--db', join(work, 'check-c.db')], empty);
    expect(none.stderr).not.toContain('are not built');
  }, 240_000);

  it('asset notices - the ladder names a field bot missing its tables once when it joins, not again at each game; nothing when they are built', async () => {
    // tiny-notice plays without its tables (slower, in a real bot): it is checked and placed all the same.
    const args = (db: string) => ['ladder', '--bot', 'tiny-notice', '--bot', 'constructive', '--puzzle', 'sliding 3x3', '--scrambles', '1', '--min-games', '2', '--db', join(work, db)];
    // Until two games have finished: each game is a match whose start would name the missing tables again.
    const twoGames = /match \d+ (finished|stopped)[\s\S]*match \d+ (finished|stopped)/;
    const missing = await runUntil(args('ladder-a.db'), empty, twoGames);
    noStack(missing);
    expect(missing.stderr).toMatch(twoGames);
    expect(count(missing.stderr, NOTICE_MISSING_LINE)).toBe(1);
    // Named before its check starts it.
    expect(missing.stderr.indexOf(NOTICE_MISSING_LINE)).toBeLessThan(missing.stderr.indexOf('checking tiny-notice'));
    const present = await runUntil(args('ladder-b.db'), prepared, /match \d+ (finished|stopped)/);
    noStack(present);
    expect(present.stderr).toMatch(/match \d+ (finished|stopped)/);
    expect(present.stderr).not.toContain('are not built');
  }, 300_000);

  describe.skipIf(skipPgTests())('on a real PostgreSQL', () => {
    let server: PgServer;
    beforeAll(async () => {
      server = await startPgServer();
    }, 120_000);
    afterAll(async () => {
      await server?.destroy();
    });

    /** A distributed match of tiny-tables on a fresh database, and a worker with the asset store `store`; the worker's stderr once it took the job and played it. */
    async function workerRun(store: string): Promise<Ran> {
      const url = await server.createDatabase('assets');
      const match = startArenaIn(root, work, ['match', 'tiny-tables', '--puzzle', 'sliding', '--size', '4', '--walk', '12', '--count', '2', '--db', url, '--distributed'], store);
      children.push(match.child);
      let played = false;
      const w = startArenaIn(root, work, ['worker', '--db', url, '--name', 'w1', '--heartbeat', '1s', '--dead-after', '6s'], store, (err) => {
        played ||= /#\d+ tiny-tables: /.test(err);
      });
      children.push(w.child);
      expect(await waitFor(() => played, 180_000)).toBe(true);
      w.child.kill('SIGINT');
      match.child.kill('SIGINT');
      await match.done;
      return w.done;
    }

    it('asset notices - a worker names the job\'s bot missing its tables on this machine when it takes the job, and plays it; nothing when they are built', async () => {
      const missing = await workerRun(empty);
      noStack(missing);
      expect(count(missing.stderr, TINY_MISSING_LINE)).toBe(1);
      expect(missing.stderr.indexOf(TINY_MISSING_LINE)).toBeGreaterThan(missing.stderr.indexOf('job of'));
      // It played the job all the same (a result line per scramble).
      expect(missing.stderr).toMatch(/#\d+ tiny-tables: /);
      const present = await workerRun(prepared);
      noStack(present);
      expect(present.stderr).toMatch(/#\d+ tiny-tables: solved/);
      expect(present.stderr).not.toContain('are not built');
    }, 400_000);
  });
});
