/**
 * The submissions' web pages over an in-memory stand-in of the submission service: who may see what, the
 * status page reloading until final, the upload form's answers, escaping of what participants wrote.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/app/context.ts';
import { addParticipant } from '../../src/app/participants/participants.ts';
import { startSession } from '../../src/app/participants/sessions.ts';
import { createMemoryStore } from '../../src/store/memory/memory-store.ts';
import { systemClock } from '../../src/transport/system-clock.ts';
import { createWebApp } from '../../src/web/server.ts';
import { ROOT } from '../e2e/helpers.ts';
import { fakeSubmissions } from '../helpers/fake-submissions.ts';

describe('submission pages - over a stand-in service', () => {
  let ctx: AppContext;
  let fake: ReturnType<typeof fakeSubmissions>;
  let app: ReturnType<typeof createWebApp>;
  const cookies: Record<string, string> = {};

  beforeEach(async () => {
    ctx = { store: createMemoryStore(), dbLocation: 'memory', projectRoot: ROOT, clock: systemClock };
    for (const [name, admin] of [['alice', false], ['bob', false], ['root', true]] as const) {
      const added = await addParticipant(ctx, { name, admin });
      if (!added.ok) throw new Error(added.reason);
      const s = await startSession(ctx, added.value.token);
      if (!s.ok) throw new Error(s.reason);
      cookies[name] = `arena_session=${s.value.id}`;
    }
    fake = fakeSubmissions({ botOf: (c) => `${c.name}/<b>bold</b>` });
    app = createWebApp(ctx, () => {}, {}, fake);
    await fake.submitArchive({ name: 'alice', admin: false }, archiveFile());
  });

  const dir = mkdtempSync(join(tmpdir(), 'arena-pages-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A file for the stand-in to read (it takes any bytes). */
  function archiveFile(): string {
    const file = join(dir, 'a.tar.gz');
    writeFileSync(file, 'archive');
    return file;
  }

  const get = (path: string, who?: string) => app.request(path, who ? { headers: { Cookie: cookies[who]! } } : {});

  it('/submit - strangers are sent to sign in; a signed-in participant gets the form with the folder script', async () => {
    const stranger = await get('/submit');
    expect(stranger.status).toBe(303);
    expect(stranger.headers.get('location')).toBe('/sign-in');
    const form = await (await get('/submit', 'alice')).text();
    expect(form).toContain('<form method="post" action="/submit" enctype="multipart/form-data"');
    expect(form).toContain('<script src="/static/submit-folder.js"></script>');
    expect((await get('/static/submit-folder.js')).headers.get('content-type')).toMatch(/^text\/javascript/);
  });

  it('POST /submit - the file reaches the service and the answer is a redirect to its page; a refusal is shown on the form with its status', async () => {
    const post = (body: string, origin = 'http://localhost') => {
      const form = new FormData();
      form.set('archive', new File([body], 'bot.tar.gz'));
      return app.request('http://localhost/submit', { method: 'POST', headers: { Cookie: cookies.alice!, Origin: origin }, body: form });
    };
    const done = await post('archive');
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('/submissions/2');
    const refused = await post('refuse:limit');
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain('<p class="problem" id="submit-problem">refused with limit</p>');
    expect((await post('archive', 'http://evil.example')).status).toBe(403);
    const big = await post('x'.repeat(10 * 1024 * 1024 + 100 * 1024));
    expect(big.status).toBe(413);
    expect(big.headers.get('connection')).toBe('close');
    expect(await big.text()).toContain('the archive is larger than 10 MiB');
    expect(fake.archives).toHaveLength(3);
  });

  it('/submissions/:id - its owner and admins see it, reloading until final; others get 403, strangers sign in', async () => {
    fake.logs.set(1, 'cc: <oops>\n');
    const page = await get('/submissions/1', 'alice');
    expect(page.status).toBe(200);
    expect(page.headers.get('refresh')).toBe('2');
    const text = await page.text();
    expect(text).toContain('alice/&lt;b&gt;bold&lt;/b&gt;');
    expect(text).toContain('<pre id="build-log">cc: &lt;oops&gt;\n</pre>');
    expect((await get('/submissions/1', 'root')).status).toBe(200);
    expect((await get('/submissions/1', 'bob')).status).toBe(403);
    expect((await get('/submissions/9', 'alice')).status).toBe(404);
    expect((await get('/submissions/1')).status).toBe(303);
    fake.views[0] = { ...fake.views[0]!, status: 'placed', ladderVersion: 1 };
    const placed = await get('/submissions/1', 'alice');
    expect(placed.headers.get('refresh')).toBeNull();
    expect(await placed.text()).toContain('<b id="submission-status">placed</b>');
  });

  it('/participants/:name - the submissions show to their owner and admins only; an unknown name is 404', async () => {
    expect(await (await get('/participants/alice', 'alice')).text()).toContain('id="participant-submissions"');
    expect(await (await get('/participants/alice', 'root')).text()).toContain('<a href="/submissions/1">1</a>');
    expect(await (await get('/participants/alice', 'bob')).text()).not.toContain('participant-submissions');
    expect(await (await get('/participants/alice')).text()).not.toContain('participant-submissions');
    expect((await get('/participants/nobody')).status).toBe(404);
  });

  it('/toolchains - lists what the service says is installed', async () => {
    expect(await (await get('/toolchains')).text()).toContain('<tr><td>gcc</td><td>12.2.0</td></tr>');
  });
});
