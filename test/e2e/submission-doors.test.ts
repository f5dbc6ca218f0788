/**
 * The submission doors of a real `arena serve` over real HTTP and HTTPS, on a real SQLite file, as far as
 * they stand without the submission service behind them: no token or a wrong one is 401, an archive over
 * the cap 413; the rest of a refused body is read and dropped first, as for every refusal made before
 * reading, so a slow client finishes its write and reads the answer; a refused upload reaches the service
 * and comes back as `{"error"}` (also through `arena submit`), the upload form needs a signed-in participant and refuses
 * another origin's post; `--tls-cert/--tls-key` serve HTTPS with a Secure session cookie.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arenaRuns, spawnArena, waitFor } from './helpers.ts';

type Run = ReturnType<typeof spawnArena>;

/** An answer read whole. */
interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request over node's own http/https (a self-signed certificate trusted through `ca`); `body` is written as it is. */
function send(url: string, o: { method?: string; headers?: Record<string, string>; body?: Buffer | string; ca?: Buffer } = {}): Promise<Answer> {
  const u = new URL(url);
  const make = u.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = make(u, { method: o.method ?? 'GET', headers: o.headers, ...(o.ca ? { ca: o.ca } : {}) }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    // The server may close while a refused body is still being written: its answer, when one came, is what
    // counts (it settles the promise first); without one the error stands.
    req.on('error', (e) => setTimeout(() => reject(e), 2000));
    req.end(o.body);
  });
}

/** What a slow client saw: the answer's status and body, whether its write finished, and its error if any. */
interface SlowOutcome {
  status?: number;
  body: string;
  wrote: boolean;
  error?: string;
}

/** POSTs 11 MiB with its length declared, a MiB every 100 ms, as a client on a slow link would. */
function slowPost(url: string, headers: Record<string, string>): Promise<SlowOutcome> {
  const mib = Buffer.alloc(1024 * 1024, 7);
  return new Promise((resolve) => {
    const seen: SlowOutcome = { body: '', wrote: false };
    const req = httpRequest(new URL(url), { method: 'POST', headers: { ...headers, 'Content-Length': String(11 * mib.length) } }, (res) => {
      seen.status = res.statusCode;
      res.setEncoding('utf8');
      res.on('data', (d) => (seen.body += d));
      res.on('end', () => setTimeout(() => resolve(seen), 100));
    });
    req.on('finish', () => (seen.wrote = true));
    req.on('error', (e) => {
      seen.error = e.message;
      setTimeout(() => resolve(seen), 2000);
    });
    let sent = 0;
    const next = () => {
      if (sent === 11) return void req.end();
      sent++;
      req.write(mib);
      setTimeout(next, 100);
    };
    next();
  });
}

describe('submission doors - a real arena serve over HTTP and HTTPS', () => {
  const { arena, tempDir } = arenaRuns();
  const serves: Run[] = [];
  let dir: string;
  let db: string;
  let alice: string;
  let url: string;

  /** Starts `arena serve` with `args`; its URL once it listens. */
  async function serve(args: string[]): Promise<string> {
    const run = spawnArena(['serve', '--port', '0', '--db', db, ...args], {});
    serves.push(run);
    let out = '';
    run.child.stdout!.on('data', (d) => (out += d));
    expect(await waitFor(() => /at (https?:\/\/\S+)/.test(out), 60_000), out).toBe(true);
    return /at (https?:\/\/\S+)/.exec(out)![1]!;
  }

  beforeAll(async () => {
    dir = tempDir('arena-doors-');
    db = join(dir, 'arena.db');
    const added = await arena(['user', 'add', 'alice', '--json', '--db', db]).done;
    expect(added.code, added.stderr).toBe(0);
    alice = JSON.parse(added.stdout).token;
    url = await serve([]);
  }, 120_000);

  afterAll(async () => {
    for (const r of serves) if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGTERM');
    await Promise.all(serves.map((r) => r.done));
  });

  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

  it('POST /api/submissions - no token and a wrong token are 401 with {"error"}; curl-style posts need no Origin', async () => {
    const none = await send(`${url}/api/submissions`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'x' });
    expect(none.status).toBe(401);
    expect(JSON.parse(none.body).error).toMatch(/Bearer/);
    const wrong = await send(`${url}/api/submissions`, { method: 'POST', headers: bearer(`arena_${'w'.repeat(43)}`), body: 'x' });
    expect(wrong.status).toBe(401);
    expect(JSON.parse(wrong.body)).toEqual({ error: 'the token is wrong or revoked' });
    const who = await send(`${url}/api/whoami`, { headers: bearer(alice) });
    expect(JSON.parse(who.body)).toEqual({ user: 'alice', admin: false });
  }, 60_000);

  it('POST /api/submissions - 11 MiB is 413 with {"error"}, whether its length is declared or not', async () => {
    const big = Buffer.alloc(11 * 1024 * 1024, 7);
    const declared = await send(`${url}/api/submissions`, { method: 'POST', headers: bearer(alice), body: big });
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body)).toEqual({ error: 'the archive is larger than 10 MiB' });
    const chunked = await send(`${url}/api/submissions`, { method: 'POST', headers: { ...bearer(alice), 'Transfer-Encoding': 'chunked' }, body: big });
    expect(chunked.status).toBe(413);
    expect(chunked.headers.connection).toBe('close');
    // The server goes on serving.
    expect((await send(`${url}/api/whoami`, { headers: bearer(alice) })).status).toBe(200);
  }, 60_000);

  it('POST /api/submissions - a slow client writing 11 MiB over a second finishes its write and reads the 413, with no reset', async () => {
    const outcome = await slowPost(`${url}/api/submissions`, bearer(alice));
    // Answering and closing with the body unread would reset the connection under the client's write.
    expect(outcome).toMatchObject({ wrote: true, status: 413 });
    expect(outcome.error).toBeUndefined();
    expect(JSON.parse(outcome.body)).toEqual({ error: 'the archive is larger than 10 MiB' });
  }, 60_000);

  it('POST /api/submissions - a slow upload refused before its body is read (wrong token 401, a second upload at once 429) is read first: the answer arrives, not a reset', async () => {
    const wrong = await slowPost(`${url}/api/submissions`, bearer(`arena_${'w'.repeat(43)}`));
    expect(wrong).toMatchObject({ wrote: true, status: 401 });
    expect(wrong.error).toBeUndefined();
    // Two uploads of one participant at once: whichever the server takes first is 413 (over the cap), the other
    // 429, each read to its end first (on a loaded machine the second may be the one taken first).
    const first = slowPost(`${url}/api/submissions`, bearer(alice));
    await new Promise((r) => setTimeout(r, 300));
    const both = await Promise.all([first, slowPost(`${url}/api/submissions`, bearer(alice))]);
    for (const one of both) {
      expect(one.wrote).toBe(true);
      expect(one.error).toBeUndefined();
    }
    expect(both.map((b) => b.status).sort()).toEqual([413, 429]);
    expect(JSON.parse(both.find((b) => b.status === 429)!.body)).toEqual({ error: 'one upload at a time: your previous upload is still arriving' });
  }, 60_000);

  it('POST /api/submissions - a text file reaches the submission service and is refused with its reason; arena submit says it in one line, exit 1', async () => {
    const res = await send(`${url}/api/submissions`, { method: 'POST', headers: bearer(alice), body: 'just some text, not an archive\n' });
    expect(res.status).toBe(400);
    const reason = JSON.parse(res.body).error as string;
    expect(reason.length).toBeGreaterThan(0);
    const file = join(dir, 'notes.txt');
    writeFileSync(file, 'just some text, not an archive\n');
    const r = await arena(['submit', '--archive', file, '--server', url, '--token', alice]).done;
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`arena: ${url} refused the submission: ${reason}\n`);
  }, 60_000);

  it('/submit - strangers are sent to sign in; another origin’s post with the session cookie is refused (403); ours reaches the service', async () => {
    const page = await send(`${url}/submit`);
    expect(page.status).toBe(303);
    expect(page.headers.location).toBe('/sign-in');
    const signIn = await send(`${url}/sign-in`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: url },
      body: new URLSearchParams({ token: alice }).toString(),
    });
    expect(signIn.status).toBe(303);
    const cookie = String(signIn.headers['set-cookie']).split(';')[0]!;
    expect((await send(`${url}/submit`, { headers: { Cookie: cookie } })).body).toContain('enctype="multipart/form-data"');
    const form = (origin: string) => {
      const boundary = 'arena-boundary';
      const body = `--${boundary}\r\nContent-Disposition: form-data; name="archive"; filename="bot.txt"\r\nContent-Type: text/plain\r\n\r\nnot an archive\r\n--${boundary}--\r\n`;
      return send(`${url}/submit`, { method: 'POST', headers: { Cookie: cookie, Origin: origin, 'Content-Type': `multipart/form-data; boundary=${boundary}` }, body });
    };
    expect((await form('http://evil.example')).status).toBe(403);
    const ours = await form(url);
    expect(ours.status).toBe(400);
    expect(ours.body).toContain('id="submit-problem"');
    // A form over the cap, sent slowly: the browser finishes its write and gets the page, not a reset.
    const slow = await slowPost(`${url}/submit`, { Cookie: cookie, Origin: url, 'Content-Type': 'multipart/form-data; boundary=arena-boundary' });
    expect(slow).toMatchObject({ wrote: true, status: 413 });
    expect(slow.error).toBeUndefined();
    expect(slow.body).toContain('the archive is larger than 10 MiB');
    expect((await send(`${url}/toolchains`)).status).toBe(200);
  }, 60_000);

  it('arena serve --tls-cert/--tls-key - HTTPS with a self-signed certificate; the session cookie is Secure; --no-builds is accepted', async () => {
    const cert = join(dir, 'cert.pem');
    const key = join(dir, 'key.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
    const secure = await serve(['--tls-cert', cert, '--tls-key', key, '--no-builds']);
    expect(secure).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const ca = (await import('node:fs')).readFileSync(cert);
    const who = await send(`${secure}/api/whoami`, { headers: bearer(alice), ca });
    expect(JSON.parse(who.body)).toEqual({ user: 'alice', admin: false });
    const signIn = await send(`${secure}/sign-in`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: secure },
      body: new URLSearchParams({ token: alice }).toString(),
      ca,
    });
    expect(signIn.status).toBe(303);
    expect(String(signIn.headers['set-cookie'])).toMatch(/arena_session=[^;]+;.*Secure/);
    // Plain HTTP on the HTTPS port gets no page.
    await expect(send(secure.replace('https:', 'http:') + '/api/whoami', { headers: bearer(alice) }).then((a) => a.status)).rejects.toThrow();
  }, 120_000);

  it('arena serve --tls-cert without --tls-key, or a missing file: one line, exit 2', async () => {
    const alone = await arena(['serve', '--port', '0', '--db', db, '--tls-cert', join(dir, 'cert.pem')]).done;
    expect(alone.code).toBe(2);
    expect(alone.stderr).toBe('arena: --tls-cert and --tls-key go together\n');
    const missing = await arena(['serve', '--port', '0', '--db', db, '--tls-cert', join(dir, 'none.pem'), '--tls-key', join(dir, 'none.pem')]).done;
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^arena: --tls-cert .*none\.pem: no such file\n$/);
  }, 60_000);
});
