import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { uploadGate } from '../../src/web/upload-body.ts';
import type {} from '../../src/web/current-participant.ts';

/** An app whose one upload route waits until `release` is called; the participant comes from a header. */
function app(max: number) {
  const app = new Hono();
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  app.use('*', async (c, next) => {
    const name = c.req.header('x-who');
    if (name) c.set('participant', { name, admin: false, createdAt: '' });
    await next();
  });
  const gate = uploadGate(
    (c) => c.json({ error: 'busy' }, 503),
    max,
    (c) => c.json({ error: 'one at a time' }, 429),
  );
  app.post('/up', gate, async (c) => {
    await held;
    return c.json({ ok: true });
  });
  return { app, release };
}

const post = (a: Hono, who?: string) => a.request('/up', { method: 'POST', headers: who ? { 'x-who': who } : {} });

describe('upload gate', () => {
  it('upload gate - one upload at a time per participant (429), others still come in, and the total stays capped (503)', async () => {
    const { app: a, release } = app(3);
    const first = post(a, 'mallory');
    await new Promise((r) => setTimeout(r, 10));
    expect((await post(a, 'mallory')).status).toBe(429);
    const alice = post(a, 'alice');
    const anon = post(a);
    await new Promise((r) => setTimeout(r, 10));
    // Three open (mallory, alice, an anonymous one the route itself refuses later): the fourth is busy.
    expect((await post(a, 'bob')).status).toBe(503);
    release();
    expect((await first).status).toBe(200);
    expect((await alice).status).toBe(200);
    expect((await anon).status).toBe(200);
    // Once hers has arrived, mallory may upload again.
    expect((await post(a, 'mallory')).status).toBe(200);
  });
});
