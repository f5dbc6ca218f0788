/**
 * The ladder plays snapshots (real SQLite file, real processes, real bwrap): a bot that adds a file to its
 * folder at every start cannot (its folder is read-only) and stays one version; a registered folder that
 * then fills with 400 sparse 64 MiB files, or with a path nested deeper than the kernel can name, is
 * reported with one line each and keeps playing its registered snapshot, and the ladder keeps playing;
 * Ctrl-C stops it with no stack, and a restart says the same lines and plays on rather than crashing.
 */
import { appendFileSync, closeSync, existsSync, ftruncateSync, openSync, readdirSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnArena, waitFor } from './helpers.ts';
import { astarFolder, reader, startLadder } from './ladder-helpers.ts';
import { CAN_SANDBOX } from '../helpers/sandbox.ts';
import { tempFolder } from '../helpers/bot-folders.ts';

const FLAGS = ['--puzzle', 'sliding 3x3', '--bot', 'dijkstra', '--scrambles', '2', '--min-games', '2', '--max-games', '4', '--target', '400', '--budget', '200', '--seed', 'snap', '--time-limit', '5s', '--poll', '300ms'];
const add = (name: string, dir: string): string[] => ['bot', 'add', name, '--cmd', `${process.execPath} bot.mjs`, '--cwd', dir, '--stdio'];

describe.runIf(process.platform === 'linux' && CAN_SANDBOX)('ladder snapshot e2e - churn, sparse and deep folders', () => {
  const children: ReturnType<typeof spawnArena>[] = [];
  afterAll(() => {
    for (const c of children) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
  });

  it('ladder - one version for a bot that writes at each start; sparse and deep folders reported, their snapshots and the ladder play on', { timeout: 900_000 }, async () => {
    const db = join(tempFolder('ladder-snap-db'), 'ladder.db');
    const churn = astarFolder();
    // At every start it tries to add a file to its folder: a new version per start on the live folder.
    const bot = join(churn, 'bot.mjs');
    writeFileSync(bot, `import { writeFileSync as w } from 'node:fs';\ntry { w('churn-' + process.pid + '-' + Date.now(), 'x'); } catch {}\n` + execFileSync('cat', [bot], { encoding: 'utf8' }));
    const sparse = astarFolder();
    const deep = astarFolder();
    for (const [name, dir] of [['churn', churn], ['sparse', sparse], ['deep', deep]] as const) {
      const r = await spawnArena([...add(name, dir), '--db', db], {}).done;
      expect(r.code, r.stderr).toBe(0);
    }
    const start = () => startLadder(db, FLAGS, children);
    const first = start();
    const ctx = await reader(db);
    try {
      const placed = async (names: readonly string[]) => {
        const v = await ctx.store.ladder().listVersions();
        return names.every((n) => v.some((x) => x.bot === n && x.status === 'placed'));
      };
      expect(await waitFor(() => placed(['churn', 'sparse', 'deep', 'dijkstra']), 600_000), first.log()).toBe(true);

      // 400 sparse files of 64 MiB (a few KB on disk), and a path longer than PATH_MAX, in the live folders.
      for (let i = 0; i < 400; i++) {
        const fd = openSync(join(sparse, `s${i}`), 'w');
        ftruncateSync(fd, 64 * 2 ** 20);
        closeSync(fd);
      }
      execFileSync('python3', ['-c', `import os\nos.chdir(${JSON.stringify(deep)})\nfor i in range(25):\n    os.mkdir('${'d'.repeat(200)}'); os.chdir('${'d'.repeat(200)}')\nopen('f', 'w').close()`]);
      appendFileSync(join(deep, 'bot.mjs'), '// changed\n');
      const gamesBefore = (await ctx.store.ladder().listGames({ limit: 1 }))[0]?.id ?? 0;
      const noted = await waitFor(() => /sparse: its folder changed, and .*more than 104857600 bytes.*; it plays its snapshot/.test(first.log()) && /deep: its folder changed, and .*longer than the system can name.*; it plays its snapshot/.test(first.log()), 120_000);
      expect(noted, first.log()).toBe(true);
      // The ladder keeps playing: more games after the notes.
      expect(await waitFor(async () => ((await ctx.store.ladder().listGames({ limit: 1 }))[0]?.id ?? 0) >= gamesBefore + 2, 300_000), first.log()).toBe(true);

      const versions = await ctx.store.ladder().listVersions();
      for (const name of ['churn', 'sparse', 'deep']) expect(versions.filter((v) => v.bot === name).map((v) => v.number), name).toEqual([1]);
      expect(readdirSync(churn).filter((f) => f.startsWith('churn-'))).toEqual([]);

      first.child.kill('SIGINT');
      const stopped = await first.done;
      expect(stopped.code, stopped.stderr).toBe(0);
      expect(stopped.stderr).not.toMatch(/\n\s+at /);

      // A restart (ENAMETOOLONG crashed every restart before) reports the same and plays on.
      const again = start();
      expect(await waitFor(() => /deep: its folder changed/.test(again.log()) && /match \d+ finished/.test(again.log()), 300_000), again.log()).toBe(true);
      again.child.kill('SIGINT');
      const end = await again.done;
      expect(end.code, end.stderr).toBe(0);
      expect(existsSync(db)).toBe(true);
    } finally {
      await ctx.close();
    }
  });
});
