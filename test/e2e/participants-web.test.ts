/**
 * Participants end to end: real `arena user` commands on a real SQLite file, and real `arena serve`
 * processes answering real HTTP. Tokens printed once, never listed; the API and the pages refuse a missing,
 * wrong or revoked token on a private server; the cookie's attributes; cross-site form posts; the limit on
 * failed sign-ins; escaping of what a participant's name shows.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openContext } from '../../src/app/context.ts';
import { newToken, secretHash } from '../../src/app/participants/tokens.ts';
import { spawnArena, waitFor } from './helpers.ts';

type Run = ReturnType<typeof spawnArena>;

async function arena(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return spawnArena(args, {}).done;
}

/** Starts `arena serve` on a free port; its URL once it listens. */
async function serve(args: string[], runs: Run[]): Promise<string> {
  const run = spawnArena(['serve', '--port', '0', ...args], {});
  runs.push(run);
  let out = '';
  run.child.stdout!.on('data', (d) => (out += d));
  expect(await waitFor(() => /at (http:\/\/\S+)/.test(out), 60_000), out).toBe(true);
  return /at (http:\/\/\S+)/.exec(out)![1]!;
}

/** A form POST as a browser sends it; `headers` adds or overrides (Origin, X-Forwarded-…). */
function postForm(url: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: new URL(url).origin, ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

const bearer = (token: string) => ({ headers: { Authorization: `Bearer ${token}` }, redirect: 'manual' as const });

describe('participants - arena user and arena serve over real HTTP and a real SQLite file', () => {
  let dir: string;
  let db: string;
  let alice: string;
  let bobToken: string;
  let privateUrl: string;
  let proxiedUrl: string;
  const runs: Run[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'arena-participants-'));
    db = join(dir, 'arena.db');
    const m = await arena(['match', 'reference-bfs', 'dijkstra', '--puzzle', 'sliding', '--size', '3', '--count', '2', '--seed', '7', '--db', db, '--quiet']);
    expect(m.code, m.stderr).toBe(0);
  }, 300_000);

  afterAll(async () => {
    for (const r of runs) if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGTERM');
    await Promise.all(runs.map((r) => r.done));
    rmSync(dir, { recursive: true, force: true });
  });

  it('arena user - an admin adds two participants; each token is printed once; the list shows none', async () => {
    const a = await arena(['user', 'add', 'alice', '--admin', '--json', '--db', db]);
    expect(a.code, a.stderr).toBe(0);
    const added = JSON.parse(a.stdout) as { user: string; token: string };
    expect(Object.keys(added).sort()).toEqual(['token', 'user']);
    expect(added.user).toBe('alice');
    expect(added.token).toMatch(/^arena_[A-Za-z0-9_-]{43}$/);
    alice = added.token;
    const b = await arena(['user', 'add', 'bob', '--db', db]);
    expect(b.code, b.stderr).toBe(0);
    const tokens = b.stdout.match(/arena_[A-Za-z0-9_-]{43}/g) ?? [];
    expect(tokens).toHaveLength(1);
    bobToken = tokens[0]!;
    const list = await arena(['user', 'list', '--db', db]);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/alice\s+yes/);
    expect(list.stdout).toMatch(/bob\s+no/);
    const json = await arena(['user', 'list', '--json', '--db', db]);
    for (const out of [list.stdout, json.stdout]) {
      expect(out).not.toContain('arena_');
      expect(out).not.toContain(secretHash(alice));
    }
    expect(JSON.parse(json.stdout).map((p: { name: string; admin: boolean }) => [p.name, p.admin])).toEqual([
      ['alice', true],
      ['bob', false],
    ]);
  }, 120_000);

  it('arena user - a name holding <script>, a taken name or a look-alike is refused in one line, exit 1', async () => {
    for (const name of ['<script>alert(1)</script>', 'alice', 'Alice', 'a1ice']) {
      const r = await arena(['user', 'add', name, '--db', db]);
      expect(r.code, name).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n'), r.stderr).toHaveLength(1);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    const revokeNobody = await arena(['user', 'revoke', 'nobody', '--db', db]);
    expect(revokeNobody.code).toBe(1);
    expect(revokeNobody.stderr).toContain('no participant "nobody"');
  }, 120_000);

  it('arena serve --private - no token 401, wrong token 401, right token 200; pages send strangers to sign in', async () => {
    privateUrl = await serve(['--private', '--db', db], runs);
    const none = await fetch(`${privateUrl}/api/leaderboard`);
    expect(none.status).toBe(401);
    expect(await none.json()).toHaveProperty('error');
    const wrong = await fetch(`${privateUrl}/api/leaderboard`, bearer(`arena_${'x'.repeat(43)}`));
    expect(wrong.status).toBe(401);
    expect((await wrong.json()).error).toMatch(/wrong or revoked/);
    const right = await fetch(`${privateUrl}/api/leaderboard`, bearer(alice));
    expect(right.status).toBe(200);
    expect(JSON.stringify(await right.json())).toContain('dijkstra');
    const page = await fetch(`${privateUrl}/`, { redirect: 'manual' });
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe('/sign-in');
    expect(await page.text()).not.toContain('dijkstra');
    expect((await fetch(`${privateUrl}/sign-in`)).status).toBe(200);
    expect((await fetch(`${privateUrl}/static/style.css`)).status).toBe(200);
  }, 120_000);

  it('arena user revoke - a revoked token is refused at once by the running server', async () => {
    expect((await fetch(`${privateUrl}/api/bots`, bearer(bobToken))).status).toBe(200);
    const r = await arena(['user', 'revoke', 'bob', '--db', db]);
    expect(r.code, r.stderr).toBe(0);
    const after = await fetch(`${privateUrl}/api/bots`, bearer(bobToken));
    expect(after.status).toBe(401);
    expect((await arena(['user', 'list', '--db', db])).stdout).toMatch(/bob\s+no\s+\S+\s+\d{4}-/);
  }, 120_000);

  it('sign-in - the cookie is HttpOnly, SameSite=Lax, Path=/, not Secure over plain HTTP; it shows the leaderboard and the name; sign-out ends it', async () => {
    const res = await postForm(`${privateUrl}/sign-in`, { token: alice });
    expect(res.status).toBe(303);
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^arena_session=[A-Za-z0-9_-]{43};/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).toMatch(/; Max-Age=604800/);
    expect(cookie).not.toMatch(/Secure/);
    const session = cookie.split(';')[0]!;
    const page = await fetch(`${privateUrl}/`, { headers: { Cookie: session }, redirect: 'manual' });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('dijkstra');
    expect(html).toContain('<span id="who">alice</span>');
    expect((await fetch(`${privateUrl}/api/leaderboard`, { headers: { Cookie: session } })).status).toBe(200);
    // A plain-HTTP server ignores a claim of HTTPS unless it trusts a proxy.
    const claimed = await postForm(`${privateUrl}/sign-in`, { token: alice }, { 'X-Forwarded-Proto': 'https' });
    expect(claimed.headers.get('set-cookie')).not.toMatch(/Secure/);
    const out = await postForm(`${privateUrl}/sign-out`, {}, { Cookie: session });
    expect(out.status).toBe(303);
    expect(out.headers.get('set-cookie')).toMatch(/^arena_session=;.*Max-Age=0/);
    expect((await fetch(`${privateUrl}/`, { headers: { Cookie: session }, redirect: 'manual' })).status).toBe(303);
  }, 120_000);

  it('sign-in - a form posted from another origin is refused (403) and signs no one in', async () => {
    const attempts: Record<string, string>[] = [{ Origin: 'https://evil.example' }, { Origin: 'null' }, { Origin: '', 'Sec-Fetch-Site': 'cross-site' }];
    for (const headers of attempts) {
      const res = await postForm(`${privateUrl}/sign-in`, { token: alice }, headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.headers.get('set-cookie')).toBeNull();
    }
    const out = await postForm(`${privateUrl}/sign-out`, {}, { Origin: 'https://evil.example' });
    expect(out.status).toBe(403);
  }, 120_000);

  it('escaping - a name holding <script> from a database made elsewhere shows as text in the header', async () => {
    const token = newToken();
    const opened = await openContext({ db });
    if (!opened.ok) throw new Error(opened.reason);
    await opened.value.store.participants().add({ name: '<script>alert(1)</script>', admin: false, tokenHash: secretHash(token) });
    await opened.value.close();
    const res = await postForm(`${privateUrl}/sign-in`, { token });
    const session = res.headers.get('set-cookie')!.split(';')[0]!;
    const html = await (await fetch(`${privateUrl}/sign-in`, { headers: { Cookie: session } })).text();
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script>alert(1)');
  }, 120_000);

  it('public serve behind a trusted proxy - public pages open; Secure cookie over the proxy’s HTTPS; 429 after 5 failed sign-ins from one address', async () => {
    proxiedUrl = await serve(['--trust-proxy', '--db', db], runs);
    expect((await fetch(`${proxiedUrl}/api/leaderboard`)).status).toBe(200);
    const home = await (await fetch(`${proxiedUrl}/`)).text();
    expect(home).toContain('href="/sign-in"');
    const proxied = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'arena.example', Origin: 'https://arena.example' };
    const secure = await postForm(`${proxiedUrl}/sign-in`, { token: alice }, { ...proxied, 'X-Forwarded-For': '10.0.0.9' });
    expect(secure.status).toBe(303);
    expect(secure.headers.get('set-cookie')).toMatch(/; Secure/);
    // Behind the proxy, the form must come from the public origin, not the address the proxy dials.
    expect((await postForm(`${proxiedUrl}/sign-in`, { token: alice }, { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'arena.example' })).status).toBe(403);

    const from = (address: string) => ({ 'X-Forwarded-For': `203.0.113.7, ${address}` });
    for (let i = 0; i < 5; i++) expect((await postForm(`${proxiedUrl}/sign-in`, { token: `arena_${'y'.repeat(43)}` }, from('10.0.0.1'))).status).toBe(401);
    const limited = await postForm(`${proxiedUrl}/sign-in`, { token: alice }, from('10.0.0.1'));
    expect(limited.status).toBe(429);
    const wait = Number(limited.headers.get('retry-after'));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expect(limited.headers.get('set-cookie')).toBeNull();
    // The API's bearer failures count against the same address.
    expect((await fetch(`${proxiedUrl}/api/bots`, { headers: { Authorization: `Bearer ${alice}`, ...from('10.0.0.1') } })).status).toBe(429);
    expect((await postForm(`${proxiedUrl}/sign-in`, { token: alice }, from('10.0.0.2'))).status).toBe(303);
  }, 120_000);
});
