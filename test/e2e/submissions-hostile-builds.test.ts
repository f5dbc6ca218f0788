/**
 * Hostile builds through a real `arena serve` (real HTTP, a real SQLite file, the real sandbox): a build that
 * loops forever, one that forks without end, one that writes until its disk cap and one that tries to
 * download a dependency each fail with a clear reason and their log, while the server keeps serving and
 * another participant's submission is built meanwhile. The time limit is cut to 6 s for the test
 * (ARENA_BUILD_SECONDS), and two builds run at once (ARENA_BUILD_SLOTS, the default).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempFolder } from '../helpers/bot-folders.ts';
import { spawnArena, waitFor } from './helpers.ts';

type Run = ReturnType<typeof spawnArena>;

interface View {
  submission: number;
  id?: number;
  status: string;
  reason?: string;
}

const HOSTILE: Record<string, { build: string; reason: RegExp; log?: RegExp }> = {
  looper: { build: 'while :; do :; done', reason: /ran out of time after 6 s/ },
  forker: { build: "bomb() { bomb | bomb & }; bomb; sleep 2", reason: /could not fork: more than 64 processes/ },
  filler: { build: 'cat /dev/zero > fill.bin', reason: /wrote more than its 32 MiB disk budget/ },
  fetcher: {
    build: 'python3 -c "import urllib.request; urllib.request.urlopen(\'http://1.1.1.1/dependency.tar.gz\', timeout=5)"',
    reason: /the build failed/,
    log: /Network is unreachable|URLError|unreachable/i,
  },
};

describe('submissions e2e - hostile builds fail with their reason while the server serves and builds others', () => {
  let dir: string;
  let db: string;
  let url: string;
  const token: Record<string, string> = {};
  const runs: Run[] = [];

  /** Packs a one-file bot named `name` with `build`, and uploads it as `who`; the submission id. */
  async function upload(who: string, name: string, build?: string): Promise<number> {
    const folder = tempFolder(`hostile-${name}`);
    writeFileSync(join(folder, 'bot.py'), 'print("never run")\n');
    writeFileSync(join(folder, 'arena-bot.json'), JSON.stringify({ name, run: 'python3 bot.py', transport: 'stdio', ...(build ? { build } : {}) }));
    const archive = join(dir, `${name}.tar.gz`);
    execFileSync('tar', ['-czf', archive, '-C', folder, '.']);
    const r = await fetch(`${url}/api/submissions`, { method: 'POST', headers: { Authorization: `Bearer ${token[who]}` }, body: execFileSync('cat', [archive]) });
    const body = (await r.json()) as View & { error?: string };
    expect(r.status, body.error).toBe(202);
    return body.submission;
  }

  const statusOf = async (who: string, id: number): Promise<View> =>
    (await (await fetch(`${url}/api/submissions/${id}`, { headers: { Authorization: `Bearer ${token[who]}` } })).json()) as View;

  beforeAll(async () => {
    dir = tempFolder('hostile-builds');
    db = join(dir, 'arena.db');
    for (const who of [...Object.keys(HOSTILE), 'carol']) {
      const added = await spawnArena(['user', 'add', who, '--json', '--db', db], {}).done;
      expect(added.code, added.stderr).toBe(0);
      token[who] = (JSON.parse(added.stdout) as { token: string }).token;
    }
    const serve = spawnArena(['serve', '--port', '0', '--db', db], { ARENA_BUILD_SECONDS: '6', ARENA_BUILD_SLOTS: '2', ARENA_BUILD_PROCESSES: '64', ARENA_BUILD_DISK_MIB: '32' });
    runs.push(serve);
    let out = '';
    serve.child.stdout!.on('data', (d) => (out += d));
    expect(await waitFor(() => /at (http:\/\/\S+)/.test(out), 60_000), out).toBe(true);
    url = /at (http:\/\/\S+)/.exec(out)![1]!;
  }, 120_000);

  afterAll(async () => {
    for (const r of runs) if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGTERM');
    await Promise.all(runs.map((r) => r.done));
  });

  it('builds - the loop, the fork bomb, the disk fill and the download each fail with their reason; carol\'s bot is built meanwhile', async () => {
    const ids: Record<string, number> = {};
    // The looping build first, so it holds a slot while everything else goes through the other.
    ids.looper = await upload('looper', 'looper', HOSTILE.looper!.build);
    expect(await waitFor(async () => (await statusOf('looper', ids.looper!)).status === 'building', 30_000)).toBe(true);
    const carol = await upload('carol', 'calm');
    expect(await waitFor(async () => (await statusOf('carol', carol)).status === 'checking', 30_000), JSON.stringify(await statusOf('carol', carol))).toBe(true);
    // Built while the looping build still runs: a hostile build holds one slot, never the server.
    expect((await statusOf('looper', ids.looper!)).status).toBe('building');
    expect((await fetch(`${url}/api/leaderboard`)).status).toBe(200);

    for (const who of ['forker', 'filler', 'fetcher']) ids[who] = await upload(who, who, HOSTILE[who]!.build);
    for (const [who, h] of Object.entries(HOSTILE)) {
      let last: View | undefined;
      const failed = await waitFor(async () => (last = await statusOf(who, ids[who]!)).status === 'failed', 90_000);
      expect(failed, `${who}: ${JSON.stringify(last)}`).toBe(true);
      expect(last!.reason, who).toMatch(h.reason);
      if (h.log) {
        const log = await (await fetch(`${url}/api/submissions/${ids[who]}/log`, { headers: { Authorization: `Bearer ${token[who]}` } })).text();
        expect(log, who).toMatch(h.log);
      }
    }
    // Still serving, and still building: a new version of carol's bot after all that.
    const again = await upload('carol', 'calm2');
    expect(await waitFor(async () => (await statusOf('carol', again)).status === 'checking', 30_000)).toBe(true);
  }, 300_000);
});
