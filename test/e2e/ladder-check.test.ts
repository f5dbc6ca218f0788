/**
 * A bot that fails its check is reported and never played: the ladder checks a registered bot in the
 * sandbox first, stores why it failed, `arena ladder status` says so, and no ladder game includes it. A
 * ladder killed (not stopped) is shown as stopped, its process gone.
 */
import { chmodSync, chownSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnArena, waitFor } from './helpers.ts';
import { reader } from '../helpers/ladder-bot.ts';

describe('ladder e2e - a failing bot', () => {
  it('ladder - a bot that fails its check is reported, not played', { timeout: 300_000 }, async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'arena-ladder-check-db-')), 'l.db');
    const folder = mkdtempSync(join(tmpdir(), 'arena-ladder-broken-'));
    // It answers the handshake with something that is not the protocol, then leaves.
    writeFileSync(join(folder, 'bot.mjs'), "process.stdout.write('hello, referee\\n');\n");
    if (process.getuid?.() === 0) {
      chownSync(folder, 65534, 65534);
      chownSync(join(folder, 'bot.mjs'), 65534, 65534);
      // Each start runs as a uid of the pool: it reads its folder as "others" may.
      chmodSync(folder, 0o755);
    }
    const added = await spawnArena(['bot', 'add', 'broken', '--cmd', `${process.execPath} bot.mjs`, '--cwd', folder, '--stdio', '--db', db], {}).done;
    expect(added.code, added.stderr).toBe(0);
    const ladder = spawnArena(['ladder', '--db', db, '--puzzle', 'sliding 3x3', '--bot', 'constructive', '--budget', '0', '--poll', '300ms', '--time-limit', '5s'], {});
    const ctx = await reader(db);
    try {
      const failed = await waitFor(async () => (await ctx.store.ladder().listVersions('broken'))[0]?.status === 'failed', 240_000);
      expect(failed).toBe(true);
      const v = (await ctx.store.ladder().listVersions('broken'))[0]!;
      expect(v.note).toMatch(/^handshake: /);
      const status = await spawnArena(['ladder', 'status', '--db', db], {}).done;
      expect(status.stdout).toMatch(/\nnot played:\n {2}broken v1: handshake: /);
      expect((await ctx.store.ladder().listGames()).some((g) => g.entries.some((e) => e.bot === 'broken'))).toBe(false);
      expect((await ctx.store.listMatches()).some((m) => m.bots.includes('broken'))).toBe(false);
      // Killed, not stopped: the status says its process is gone.
      ladder.child.kill('SIGKILL');
      expect((await ladder.done).stderr).toMatch(/broken v1 failed its check and is not played: handshake: /);
      const after = await spawnArena(['ladder', 'status', '--db', db], {}).done;
      expect(after.stdout).toMatch(/^ladder stopped \(pid \d+, as of .*\): stopped: its process \(\d+\) is gone\n  why: it was killed while /);
    } finally {
      ladder.child.kill('SIGKILL');
      await ctx.close();
    }
  });
});
