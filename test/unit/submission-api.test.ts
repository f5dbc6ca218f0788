/**
 * The submissions' HTTP API over an in-memory stand-in of the submission service (the real one is tested
 * end to end once it is built): the archive arrives whole in a file the service can read, and is gone
 * afterwards; each refusal code becomes its HTTP status with `{"error"}`; the cap; who may read what.
 */
import { existsSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/app/context.ts';
import { addParticipant } from '../../src/app/participants/participants.ts';
import type { SubmissionView } from '../../src/app/submissions/submissions.ts';
import { createMemoryStore } from '../../src/store/memory/memory-store.ts';
import { systemClock } from '../../src/transport/system-clock.ts';
import { createWebApp } from '../../src/web/server.ts';
import { REFUSED_BODY_READ } from '../../src/web/refused-body.ts';
import { ROOT } from '../e2e/helpers.ts';
import { fakeSubmissions } from '../helpers/fake-submissions.ts';

describe('submission API - routes over a stand-in service', () => {
  let ctx: AppContext;
  let fake: ReturnType<typeof fakeSubmissions>;
  let app: ReturnType<typeof createWebApp>;
  let alice: string;
  let bob: string;
  let admin: string;
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

  beforeEach(async () => {
    ctx = { store: createMemoryStore(), dbLocation: 'memory', projectRoot: ROOT, clock: systemClock };
    alice = ((await addParticipant(ctx, { name: 'alice', admin: false })) as { value: { token: string } }).value.token;
    bob = ((await addParticipant(ctx, { name: 'bob', admin: false })) as { value: { token: string } }).value.token;
    admin = ((await addParticipant(ctx, { name: 'root', admin: true })) as { value: { token: string } }).value.token;
    fake = fakeSubmissions();
    app = createWebApp(ctx, () => {}, {}, fake);
  });

  it('POST /api/submissions - the raw body reaches the service whole as a file, removed afterwards; 202 with submission, bot, status', async () => {
    const body = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7) % 251));
    const res = await app.request('/api/submissions', { method: 'POST', headers: { ...auth(alice), 'Content-Type': 'application/x-www-form-urlencoded' }, body });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ submission: 1, bot: 'alice/astar', status: 'received' });
    expect(res.headers.get('location')).toBe('/api/submissions/1');
    expect(fake.archives[0]!.bytes.equals(body)).toBe(true);
    expect(existsSync(fake.archives[0]!.path)).toBe(false);
  });

  it('POST /api/submissions - each refusal code is its HTTP status with {"error": reason}', async () => {
    const expected: Record<string, number> = { forbidden: 403, 'not-found': 404, limit: 429, 'too-large': 413, manifest: 400 };
    for (const [code, status] of Object.entries(expected)) {
      const res = await app.request('/api/submissions', { method: 'POST', headers: auth(alice), body: `refuse:${code}` });
      expect(res.status, code).toBe(status);
      expect(await res.json()).toEqual({ error: `refused with ${code}` });
    }
  });

  it('POST /api/submissions - beyond 10 MiB is 413 before the service sees it, by Content-Length or by counting a chunked body', async () => {
    const declared = await app.request('/api/submissions', { method: 'POST', headers: { ...auth(alice), 'Content-Length': String(10 * 1024 * 1024 + 1) }, body: 'x' });
    expect(declared.status).toBe(413);
    expect(await declared.json()).toEqual({ error: 'the archive is larger than 10 MiB' });
    let pulled = 0;
    const chunk = new Uint8Array(1024 * 1024);
    // An endless chunked body: nothing past the cap is kept, and the door stops reading it once what a
    // refusal reads and drops (so that a client sending a finite body gets its 413) is used up.
    const endless = new ReadableStream<Uint8Array>({
      pull(c) {
        pulled += chunk.length;
        c.enqueue(chunk);
      },
    });
    const res = await app.request('/api/submissions', { method: 'POST', headers: auth(alice), body: endless, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(413);
    expect(res.headers.get('connection')).toBe('close');
    expect(pulled).toBeGreaterThan(10 * 1024 * 1024);
    expect(pulled).toBeLessThan(10 * 1024 * 1024 + REFUSED_BODY_READ.bytes + 4 * chunk.length);
    expect(fake.archives).toHaveLength(0);
  });

  it('POST /api/submissions - no body is 400; no token 401; a wrong token 401', async () => {
    expect((await app.request('/api/submissions', { method: 'POST', headers: auth(alice) })).status).toBe(400);
    const none = await app.request('/api/submissions', { method: 'POST', body: 'x' });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect((await none.json()).error).toMatch(/Authorization: Bearer/);
    expect((await app.request('/api/submissions', { method: 'POST', headers: auth(`arena_${'x'.repeat(43)}`), body: 'x' })).status).toBe(401);
    expect(fake.archives).toHaveLength(0);
  });

  it('POST /api/submissions - after 5 wrong tokens from one address, even the right one waits (429 with Retry-After)', async () => {
    const wrong = auth(`arena_${'w'.repeat(43)}`);
    for (let i = 0; i < 5; i++) expect((await app.request('/api/submissions', { method: 'POST', headers: wrong, body: 'x' })).status).toBe(401);
    const limited = await app.request('/api/submissions', { method: 'POST', headers: auth(alice), body: 'x' });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await limited.json()).error).toMatch(/too many failed sign-ins/);
    expect(fake.archives).toHaveLength(0);
  });

  it('POST /api/submissions - one upload at a time per participant (429); at most 8 at once in all, the 9th is 503 with Retry-After, and the service never sees it', async () => {
    // Eight participants, each with one upload arriving; one of them tries a second.
    const tokens: string[] = [];
    for (let i = 0; i < 8; i++) tokens.push(((await addParticipant(ctx, { name: `uploader${i}`, admin: false })) as { value: { token: string } }).value.token);
    const ends: (() => void)[] = [];
    const slow = () =>
      new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(new Uint8Array([1, 2, 3]));
          ends.push(() => c.close());
        },
      });
    const pending = tokens.map((t) => app.request('/api/submissions', { method: 'POST', headers: auth(t), body: slow(), duplex: 'half' } as RequestInit));
    await new Promise((r) => setTimeout(r, 200));
    const twice = await app.request('/api/submissions', { method: 'POST', headers: auth(tokens[0]!), body: 'x' });
    expect(twice.status).toBe(429);
    expect((await twice.json()).error).toMatch(/one upload at a time/);
    let read = false;
    const ninth = new ReadableStream<Uint8Array>(
      {
        pull(c) {
          read = true;
          c.close();
        },
      },
      // Nothing is pulled before someone reads.
      { highWaterMark: 0 },
    );
    const busy = await app.request('/api/submissions', { method: 'POST', headers: auth(alice), body: ninth, duplex: 'half' } as RequestInit);
    expect(busy.status).toBe(503);
    expect(busy.headers.get('retry-after')).toBe('5');
    expect((await busy.json()).error).toMatch(/too many uploads at once/);
    // Decided before a byte was read; what it sent was then read and dropped, so a client still sending reads the 503.
    expect(read).toBe(true);
    expect(fake.archives).toHaveLength(0);
    for (const end of ends) end();
    expect((await Promise.all(pending)).map((r) => r.status)).toEqual(Array(8).fill(202));
    // The slots are free again.
    expect((await app.request('/api/submissions', { method: 'POST', headers: auth(alice), body: 'x' })).status).toBe(202);
  });

  it('GET /api/submissions/:id and /log - the owner and admins read them, another participant gets 403, an unknown id 404', async () => {
    await app.request('/api/submissions', { method: 'POST', headers: auth(alice), body: 'archive' });
    fake.logs.set(1, 'gcc: <script>alert(1)</script>\n');
    const mine = await app.request('/api/submissions/1', { headers: auth(alice) });
    expect(mine.status).toBe(200);
    expect(await mine.json()).toMatchObject({ id: 1, participant: 'alice', bot: 'alice/astar', status: 'received' });
    const log = await app.request('/api/submissions/1/log', { headers: auth(admin) });
    expect(log.status).toBe(200);
    expect(log.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await log.text()).toBe('gcc: <script>alert(1)</script>\n');
    expect((await app.request('/api/submissions/1', { headers: auth(bob) })).status).toBe(403);
    const theirs = await app.request('/api/submissions/1/log', { headers: auth(bob) });
    expect(theirs.status).toBe(403);
    expect(await theirs.json()).toEqual({ error: 'submission 1 is not yours' });
    expect((await app.request('/api/submissions/9', { headers: auth(alice) })).status).toBe(404);
    expect((await app.request('/api/submissions/x', { headers: auth(alice) })).status).toBe(400);
    expect((await app.request('/api/submissions/1')).status).toBe(401);
  });

  it('GET /api/submissions - one’s own; ?participant= another’s for admins only', async () => {
    await app.request('/api/submissions', { method: 'POST', headers: auth(alice), body: 'a1' });
    await app.request('/api/submissions', { method: 'POST', headers: auth(bob), body: 'b1' });
    const own = (await (await app.request('/api/submissions', { headers: auth(alice) })).json()) as SubmissionView[];
    expect(own.map((s) => s.participant)).toEqual(['alice']);
    expect((await app.request('/api/submissions?participant=alice', { headers: auth(bob) })).status).toBe(403);
    const seen = (await (await app.request('/api/submissions?participant=alice', { headers: auth(admin) })).json()) as SubmissionView[];
    expect(seen.map((s) => s.id)).toEqual([1]);
  });

  it('GET /api/whoami and /api/toolchains - who the token is; what is installed', async () => {
    expect(await (await app.request('/api/whoami', { headers: auth(admin) })).json()).toEqual({ user: 'root', admin: true });
    expect((await app.request('/api/whoami')).status).toBe(401);
    expect(await (await app.request('/api/toolchains')).json()).toEqual([{ name: 'gcc', version: '12.2.0' }]);
  });

  it('csrf - a form posted with the session cookie from another origin is refused; a Bearer upload needs no Origin', async () => {
    const cross = await app.request('/api/submissions', {
      method: 'POST',
      headers: { Cookie: 'arena_session=whatever', Origin: 'http://evil.example', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'x',
    });
    expect(cross.status).toBe(403);
    const curl = await app.request('/api/submissions', { method: 'POST', headers: { ...auth(alice), 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'x' });
    expect(curl.status).toBe(202);
  });
});
