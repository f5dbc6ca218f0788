/**
 * Issue 32 end to end, as participants meet it: real `arena user`, `arena serve`, `arena ladder` and
 * `arena submit` processes, real HTTP (and the real curl), a real SQLite file, builds in the real sandbox.
 * An admin adds two participants; alice submits a Python bot folder with `arena submit`, a C bot whose
 * manifest compiles it, and a third version with curl; each is built, checked and placed on the running 3×3
 * ladder, and /api/ladder shows them with their games. Bob cannot submit a version of alice's bot (403) nor
 * read her build log or her bot's stderr; a form posted from another origin is refused; no token or a wrong
 * one is 401, and repeated failures are rate-limited (last, since the limit holds this test's address). A
 * backup holds the submitted code; only its owner withdraws a bot.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, copyFileSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LadderView } from '../../src/app/ladder/ladder-status.ts';
import { installSdkInto, tempFolder } from '../helpers/bot-folders.ts';
import { ROOT, spawnArena, waitFor } from './helpers.ts';
import { LADDER_FLAGS, startLadder } from './ladder-helpers.ts';

type Run = ReturnType<typeof spawnArena>;

/** `arena submit --json`'s final line. */
interface Submitted {
  submission: number;
  bot: string;
  version?: string;
  status: string;
  reason?: string;
}

/** Writes the manifest `arena-bot.json` into `dir`. */
function manifest(dir: string, m: Record<string, unknown>): void {
  writeFileSync(join(dir, 'arena-bot.json'), JSON.stringify(m));
}

/** Runs the real curl; its status code and body (`-w` puts the code on the last line). */
function curl(args: string[]): { status: number; body: string } {
  const out = execFileSync('curl', ['-sS', '-w', '\n%{http_code}', ...args], { encoding: 'utf8' });
  const cut = out.lastIndexOf('\n');
  return { status: Number(out.slice(cut + 1)), body: out.slice(0, cut) };
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

describe('submissions e2e - participants submit from their own machine to a running arena', () => {
  let dir: string;
  let db: string;
  let url: string;
  const token: Record<string, string> = {};
  const runs: Run[] = [];
  let ladderLog = () => '';

  async function arena(args: string[], env: Record<string, string> = {}) {
    return spawnArena(args, env).done;
  }

  /** `arena submit DIR --server … --token … --json`, expected to end placed. */
  async function submitPlaced(folder: string, who: string): Promise<Submitted> {
    const r = await arena(['submit', folder, '--server', url, '--token', token[who]!, '--json']);
    expect(r.code, `${r.stdout}\n${r.stderr}\n${ladderLog()}`).toBe(0);
    const final = JSON.parse(r.stdout.trim().split('\n').pop()!) as Submitted;
    expect(final.status).toBe('placed');
    return final;
  }

  beforeAll(async () => {
    dir = tempFolder('submissions-arena');
    db = join(dir, 'arena.db');
    const admin = await arena(['user', 'add', 'judge', '--admin', '--json', '--db', db]);
    expect(admin.code, admin.stderr).toBe(0);
    for (const who of ['alice', 'bob']) {
      const added = await arena(['user', 'add', who, '--json', '--db', db]);
      expect(added.code, added.stderr).toBe(0);
      token[who] = (JSON.parse(added.stdout) as { token: string }).token;
    }
    const serve = spawnArena(['serve', '--port', '0', '--db', db], {});
    runs.push(serve);
    let out = '';
    serve.child.stdout!.on('data', (d) => (out += d));
    expect(await waitFor(() => /at (http:\/\/\S+)/.test(out), 60_000), out).toBe(true);
    url = /at (http:\/\/\S+)/.exec(out)![1]!;
    const ladder = startLadder(db, LADDER_FLAGS, runs);
    ladderLog = ladder.log;
  }, 120_000);

  afterAll(async () => {
    for (const r of runs) if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGTERM');
    await Promise.all(runs.map((r) => r.done));
  });

  let pyDir: string;
  let pySubmission: Submitted;

  it('arena submit - a Python bot folder is packed, uploaded, built, checked and placed as alice/pybot', async () => {
    pyDir = tempFolder('pybot');
    installSdkInto(pyDir);
    copyFileSync(join(ROOT, 'examples/python-bot/bot.py'), join(pyDir, 'bot.py'));
    mkdirSync(join(pyDir, 'scratch'));
    writeFileSync(join(pyDir, 'scratch', 'notes.txt'), 'left out by the manifest\n');
    manifest(pyDir, { name: 'pybot', run: 'python3 bot.py', transport: 'stdio', exclude: ['scratch/'] });
    pySubmission = await submitPlaced(pyDir, 'alice');
    expect(pySubmission.bot).toBe('alice/pybot');
    expect(pySubmission.version).toMatch(/^[0-9a-f]{64}$/);
  }, 400_000);

  it('arena submit - a C bot whose manifest compiles it is built in the sandbox and placed; its log shows the build', async () => {
    const cDir = tempFolder('cbot');
    copyFileSync(join(ROOT, 'examples/c-bot/bot.c'), join(cDir, 'bot.c'));
    manifest(cDir, { name: 'cbot', run: './bot', build: 'gcc -O2 -o bot bot.c && echo compiled', transport: 'stdio' });
    const placed = await submitPlaced(cDir, 'alice');
    expect(placed.bot).toBe('alice/cbot');
    const log = await fetch(`${url}/api/submissions/${placed.submission}/log`, { headers: bearer(token.alice!) });
    expect(log.status).toBe(200);
    expect(await log.text()).toMatch(/compiled/);
  }, 400_000);

  it('curl - a third version (alice/pybot changed) uploaded with curl is placed as v2', async () => {
    appendFileSync(join(pyDir, 'bot.py'), '\n# v2: the same solver, a new version\n');
    const archive = join(dir, 'pybot-v2.tar.gz');
    execFileSync('tar', ['-czf', archive, '-C', pyDir, '--exclude', 'scratch', '.']);
    const posted = curl(['-H', `Authorization: Bearer ${token.alice}`, '--data-binary', `@${archive}`, `${url}/api/submissions`]);
    expect(posted.status, posted.body).toBe(202);
    const id = (JSON.parse(posted.body) as { submission: number }).submission;
    let last = '';
    const placed = await waitFor(async () => {
      const s = curl(['-H', `Authorization: Bearer ${token.alice}`, `${url}/api/submissions/${id}`]);
      last = s.body;
      const status = (JSON.parse(s.body) as Submitted).status;
      if (status === 'failed') throw new Error(`the curl submission failed: ${s.body}`);
      return status === 'placed';
    }, 300_000);
    expect(placed, `${last}\n${ladderLog()}`).toBe(true);
    const view = (await (await fetch(`${url}/api/ladder`)).json()) as LadderView;
    const versions = view.versions.filter((v) => v.bot === 'alice/pybot').map((v) => [v.number, v.status]);
    expect(versions).toEqual([
      [1, 'placed'],
      [2, 'placed'],
    ]);
    const cbot = view.versions.find((v) => v.bot === 'alice/cbot');
    expect(cbot?.status).toBe('placed');
    // Each placed version played ladder games, which /api/ladder lists with its ranking.
    for (const label of ['alice/pybot v1', 'alice/pybot v2', 'alice/cbot v1']) {
      expect(view.recent.some((g) => g.labels.includes(label)), label).toBe(true);
    }
    const ranked = view.classes[0]!.ranking.map((r) => r.bot);
    expect(ranked).toEqual(expect.arrayContaining(['alice/pybot', 'alice/cbot']));
  }, 400_000);

  it('ownership - bob cannot submit a version of alice/pybot (403, exit 1) nor read her build log or her bot\'s stderr', async () => {
    const forged = tempFolder('forged');
    writeFileSync(join(forged, 'bot.py'), 'print("not alice")\n');
    manifest(forged, { name: 'alice/pybot', run: 'python3 bot.py', transport: 'stdio' });
    const r = await arena(['submit', forged, '--server', url, '--token', token.bob!, '--json']);
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toMatch(/alice/);
    const archive = join(dir, 'forged.tar.gz');
    execFileSync('tar', ['-czf', archive, '-C', forged, '.']);
    const posted = curl(['-H', `Authorization: Bearer ${token.bob}`, '--data-binary', `@${archive}`, `${url}/api/submissions`]);
    expect(posted.status, posted.body).toBe(403);

    const log = await fetch(`${url}/api/submissions/${pySubmission.submission}/log`, { headers: bearer(token.bob!) });
    expect(log.status).toBe(403);
    const view = (await (await fetch(`${url}/api/ladder`)).json()) as LadderView;
    const game = view.recent.find((g) => g.labels.some((l) => l.startsWith('alice/pybot')) && g.matchId !== undefined);
    expect(game, 'a ladder game of alice/pybot').toBeDefined();
    const path = `${url}/api/matches/${game!.matchId}/stderr/${encodeURIComponent('alice/pybot')}`;
    expect((await fetch(path, { headers: bearer(token.bob!) })).status).toBe(403);
    expect((await fetch(path, { headers: bearer(token.alice!) })).status).toBe(200);
    // Nothing of alice's bot was touched by bob's attempt: still two versions. The public view of them shows
    // no server path and no command line (alice reads those on her own page).
    const after = (await (await fetch(`${url}/api/ladder`)).json()) as LadderView;
    const mine = after.versions.filter((v) => v.bot === 'alice/pybot');
    expect(mine).toHaveLength(2);
    for (const v of mine) {
      expect(v.folder).toBeUndefined();
      expect(v.command).not.toMatch(/python3/);
    }
  }, 120_000);

  it('arena backup - the backup holds the submitted code: a machine with only the backup builds and plays alice/cbot', async () => {
    const copy = join(dir, 'backup.db');
    const backed = await arena(['backup', copy, '--db', db]);
    expect(backed.code, backed.stderr).toBe(0);
    const elsewhere = tempFolder('restored-builds');
    const played = await arena(['match', 'alice/cbot', 'constructive', '--puzzle', 'sliding', '--size', '3', '--count', '2', '--seed', '3', '--json', '--db', copy], { ARENA_SUBMISSIONS_DIR: elsewhere });
    expect(played.code, played.stderr).toBe(0);
    expect(played.stdout).toMatch(/"verdict": ?"solved"/);
    expect(readdirSync(join(elsewhere, 'built')).filter((n) => /^[0-9a-f]{64}$/.test(n))).toHaveLength(1);
  }, 120_000);

  it('arena withdraw - bob cannot withdraw alice/cbot (403, exit 1); alice can, and its results stay', async () => {
    const bob = await arena(['withdraw', 'alice/cbot', '--server', url, '--token', token.bob!]);
    expect(bob.code).toBe(1);
    expect(bob.stderr).toMatch(/did not withdraw alice\/cbot/);
    const curlDelete = curl(['-X', 'DELETE', '-H', `Authorization: Bearer ${token.bob}`, `${url}/api/bots/alice%2Fcbot`]);
    expect(curlDelete.status, curlDelete.body).toBe(403);
    const alice = await arena(['withdraw', 'alice/cbot', '--server', url, '--token', token.alice!, '--json']);
    expect(alice.code, alice.stderr).toBe(0);
    expect(JSON.parse(alice.stdout)).toEqual({ withdrawn: 'alice/cbot' });
    const bots = (await (await fetch(`${url}/api/bots`)).json()) as { name: string }[];
    expect(bots.map((b) => b.name)).not.toContain('alice/cbot');
    expect(bots.map((b) => b.name)).toContain('alice/pybot');
    const view = (await (await fetch(`${url}/api/ladder`)).json()) as LadderView;
    expect(view.recent.some((g) => g.labels.includes('alice/cbot v1'))).toBe(true);
  }, 60_000);

  it('csrf - the upload form posted from another origin with alice\'s session is refused', async () => {
    const signIn = await fetch(`${url}/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: new URL(url).origin },
      body: new URLSearchParams({ token: token.alice! }).toString(),
    });
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0]!;
    expect(cookie).toMatch(/=/);
    const form = new FormData();
    form.set('archive', new Blob([Buffer.from('not really an archive')]), 'bot.tar.gz');
    const evil = await fetch(`${url}/submit`, { method: 'POST', redirect: 'manual', headers: { Cookie: cookie, Origin: 'https://evil.example' }, body: form });
    expect(evil.status).toBe(403);
    const own = await fetch(`${url}/api/submissions`, { headers: { Cookie: cookie } });
    expect(own.status).toBe(200);
    expect(((await own.json()) as Submitted[]).length).toBe(3); // the cross-site post added nothing
  });

  it('auth - no token or a wrong one is 401; repeated failures from one address are rate-limited (429)', async () => {
    const archive = join(dir, 'pybot-v2.tar.gz');
    expect(curl(['--data-binary', `@${archive}`, `${url}/api/submissions`]).status).toBe(401);
    const wrong = `arena_${'x'.repeat(43)}`;
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push(curl(['-H', `Authorization: Bearer ${wrong}`, `${url}/api/submissions`]).status);
    expect(statuses[0]).toBe(401);
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.slice(0, statuses.indexOf(429)).every((s) => s === 401)).toBe(true);
  });
});
