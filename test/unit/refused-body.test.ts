/**
 * Reading and dropping what is left of a refused body: a finite body to its end, and cut at each bound (bytes,
 * total time, idle time); the middleware reads only what no route read, not a body declared larger than it
 * reads, and not more bodies at once than it allows (those answers say Connection: close).
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { dropRefusedBody, dropUnreadBodies } from '../../src/web/refused-body.ts';

/** A body of `chunks` chunks of `size` bytes, one every `everyMs` (0: as fast as read), then its end. */
function body(chunks: number, size: number, everyMs = 0) {
  let pulled = 0;
  let cancelled = false;
  const chunk = new Uint8Array(size).fill(7);
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(c) {
        if (pulled === chunks) return c.close();
        if (everyMs > 0) await new Promise((r) => setTimeout(r, everyMs));
        pulled++;
        c.enqueue(chunk);
      },
      cancel() {
        cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, pulled: () => pulled, cancelled: () => cancelled };
}

/** A body that never sends a byte. */
function silent() {
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    cancel() {
      cancelled = true;
    },
  });
  return { stream, cancelled: () => cancelled };
}

describe('refused body - reading and dropping', () => {
  it('refused body - a finite body is read to its end', async () => {
    const b = body(30, 1000);
    await dropRefusedBody(b.stream, { bytes: 1 << 20, ms: 10_000, idleMs: 10_000 });
    expect(b.pulled()).toBe(30);
    expect(b.cancelled()).toBe(false);
  });

  it('refused body - a body beyond the bytes is cut there', async () => {
    const b = body(100, 1000);
    await dropRefusedBody(b.stream, { bytes: 20_000, ms: 10_000, idleMs: 10_000 });
    expect(b.pulled()).toBeLessThan(100);
    expect(b.cancelled()).toBe(true);
  });

  it('refused body - a body that sends nothing is let go after the idle time, not the whole time', async () => {
    const b = silent();
    const t0 = Date.now();
    await dropRefusedBody(b.stream, { bytes: 1 << 20, ms: 60_000, idleMs: 50 });
    expect(b.cancelled()).toBe(true);
    expect(Date.now() - t0).toBeLessThan(10_000);
  });

  it('refused body - a trickle that never goes idle is cut when the whole time is up', async () => {
    const b = body(1000, 10, 10);
    await dropRefusedBody(b.stream, { bytes: 1 << 20, ms: 150, idleMs: 1000 });
    expect(b.cancelled()).toBe(true);
    expect(b.pulled()).toBeLessThan(1000);
  });
});

describe('refused body - the middleware', () => {
  /** An app whose POST /refuse answers 401 without reading, and whose POST /read reads its body. */
  function app(atOnce?: number, idleMs = 10_000) {
    const a = new Hono();
    a.use('*', dropUnreadBodies({ bytes: 50_000, ms: 10_000, idleMs }, atOnce));
    a.post('/refuse', (c) => c.json({ error: 'no' }, 401));
    a.post('/read', async (c) => c.text(String((await c.req.arrayBuffer()).byteLength)));
    return a;
  }
  const post = (a: Hono, path: string, stream: ReadableStream<Uint8Array>, length?: number) =>
    a.request(path, { method: 'POST', body: stream, duplex: 'half', headers: length === undefined ? {} : { 'Content-Length': String(length) } } as RequestInit);

  it('refused body - a refusal made before reading reads the body to its end, then answers', async () => {
    const b = body(20, 1000);
    const res = await post(app(), '/refuse', b.stream, 20_000);
    expect(res.status).toBe(401);
    expect(b.pulled()).toBe(20);
    expect(res.headers.get('connection')).toBeNull();
  });

  it('refused body - a route that read its body is left alone', async () => {
    const b = body(5, 1000);
    const res = await post(app(), '/read', b.stream);
    expect(await res.text()).toBe('5000');
  });

  it('refused body - a body declared larger than a refusal reads is not read: the answer goes at once, with Connection: close', async () => {
    const b = body(100, 1000);
    const res = await post(app(), '/refuse', b.stream, 100_000);
    expect(res.status).toBe(401);
    expect(res.headers.get('connection')).toBe('close');
    expect(b.pulled()).toBe(0);
  });

  it('refused body - beyond the reads at once, a refusal answers at once with Connection: close', async () => {
    const a = app(1, 300);
    const held = silent();
    const first = post(a, '/refuse', held.stream, 1000);
    await new Promise((r) => setTimeout(r, 50));
    const b = body(10, 100);
    const second = await post(a, '/refuse', b.stream, 1000);
    expect(second.headers.get('connection')).toBe('close');
    expect(b.pulled()).toBe(0);
    // The first was being read all along; it is let go once nothing has arrived for the idle time.
    expect((await first).status).toBe(401);
    expect(held.cancelled()).toBe(true);
  });
});
