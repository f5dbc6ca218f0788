import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { BotLink, LinkEvent } from '../../src/protocol/link.ts';
import { SUBPROTOCOL } from '../../src/protocol/messages.ts';
import type { ArenaServer } from '../../src/transport/ws-server.ts';
import { startArenaServer } from '../../src/transport/ws-server.ts';

const TOKENS: Record<string, string> = { 'secret-a': 'alpha', 'secret-b': 'beta' };
const hello = { type: 'hello', protocol: 1, name: 'alpha', version: '1', capabilities: [{ kind: 'sliding', maxSize: 9 }] };

let server: ArenaServer | undefined;
const sockets: WebSocket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.terminate();
  await server?.close();
  server = undefined;
});

async function start(opts: { pingIntervalMs?: number; handshakeTimeoutMs?: number } = {}): Promise<ArenaServer> {
  server = await startArenaServer({ authenticate: (t) => TOKENS[t], ...opts });
  return server;
}

/** Dials and resolves with the HTTP status of a refused upgrade, or the open socket. */
function dial(url: string, opts: { token?: string; protocol?: string | string[]; autoPong?: boolean } = {}): Promise<{ status?: number; ws?: WebSocket }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = opts.token ? { Authorization: `Bearer ${opts.token}` } : {};
    const ws = new WebSocket(url, opts.protocol ?? SUBPROTOCOL, { headers, autoPong: opts.autoPong ?? true });
    sockets.push(ws);
    ws.on('unexpected-response', (_req, res) => resolve({ status: res.statusCode }));
    ws.on('open', () => resolve({ ws }));
    ws.on('error', reject);
  });
}

function nextMessage(ws: WebSocket): Promise<any> {
  return new Promise((resolve) => ws.once('message', (d) => resolve(JSON.parse(d.toString()))));
}

function record(link: BotLink): { events: LinkEvent[]; until(pred: (e: LinkEvent) => boolean): Promise<LinkEvent> } {
  const events: LinkEvent[] = [];
  const waiters: Array<() => void> = [];
  link.onEvent((e) => {
    events.push(e);
    for (const w of waiters.splice(0)) w();
  });
  return {
    events,
    until(pred) {
      return new Promise((resolve) => {
        const check = (): void => {
          const hit = events.find(pred);
          if (hit) resolve(hit);
          else waiters.push(check);
        };
        check();
      });
    },
  };
}

async function connected(srv: ArenaServer, token = 'secret-a', identity = 'alpha'): Promise<{ ws: WebSocket; link: BotLink }> {
  const waiting = srv.waitForBot(identity, 5000);
  const { ws } = await dial(srv.url, { token });
  const welcome = nextMessage(ws!);
  ws!.send(JSON.stringify(hello));
  expect((await welcome).type).toBe('welcome');
  const r = await waiting;
  if (!r.ok) throw new Error(r.reason);
  return { ws: ws!, link: r.value };
}

describe('startArenaServer', () => {
  it('binds 127.0.0.1 on a free port by default', async () => {
    const srv = await start();
    expect(srv.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/$/);
    expect(srv.port).toBeGreaterThan(0);
  });

  it('completes the handshake and hands the link to the waiter for that identity', async () => {
    const srv = await start();
    const waiting = srv.waitForBot('alpha', 5000);
    const { ws } = await dial(srv.url, { token: 'secret-a' });
    const welcome = nextMessage(ws!);
    ws!.send(JSON.stringify(hello));
    const w = await welcome;
    expect(w).toMatchObject({ type: 'welcome', protocol: 1, limits: { maxPayload: 4 * 1024 * 1024 } });
    expect(typeof w.session).toBe('string');
    expect(ws!.protocol).toBe(SUBPROTOCOL);
    const r = await waiting;
    expect(r.ok && r.value.hello).toEqual(hello);
  });

  it('queues a bot that dials in before anyone waits for it', async () => {
    const srv = await start();
    const { ws } = await dial(srv.url, { token: 'secret-b' });
    const welcome = nextMessage(ws!);
    ws!.send(JSON.stringify({ ...hello, name: 'beta' }));
    await welcome;
    const r = await srv.waitForBot('beta', 5000);
    expect(r.ok && r.value.hello.name).toBe('beta');
  });

  it('accepts the token as a ?token= query parameter', async () => {
    const srv = await start();
    const { ws, status } = await dial(`${srv.url}?token=secret-a`);
    expect(status).toBeUndefined();
    expect(ws?.readyState).toBe(WebSocket.OPEN);
  });

  it('refuses a wrong or missing token with HTTP 401 before upgrading', async () => {
    const srv = await start();
    expect((await dial(srv.url, { token: 'nope' })).status).toBe(401);
    expect((await dial(srv.url)).status).toBe(401);
  });

  it('refuses a one-time token the second time', async () => {
    const srv = await start();
    srv.allowToken('once', 'gamma');
    expect((await dial(srv.url, { token: 'once' })).ws).toBeDefined();
    expect((await dial(srv.url, { token: 'once' })).status).toBe(401);
  });

  it('refuses a connection without the puzzle-arena.v1 subprotocol', async () => {
    const srv = await start();
    expect((await dial(srv.url, { token: 'secret-a', protocol: 'puzzle-arena.v0' })).status).toBe(400);
  });

  it('rejects the waiter when the first message is not a valid hello', async () => {
    const srv = await start();
    const waiting = srv.waitForBot('alpha', 5000);
    const { ws } = await dial(srv.url, { token: 'secret-a' });
    const closed = new Promise<number>((r) => ws!.once('close', (code) => r(code)));
    ws!.send(JSON.stringify({ ...hello, protocol: 2 }));
    const r = await waiting;
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toMatch(/unsupported protocol 2/);
    expect(await closed).toBe(1002);
  });

  it('times out a bot that never says hello', async () => {
    const srv = await start({ handshakeTimeoutMs: 200 });
    const waiting = srv.waitForBot('alpha', 5000);
    await dial(srv.url, { token: 'secret-a' });
    const r = await waiting;
    expect(!r.ok && r.reason).toMatch(/no hello within 200 ms/);
  });

  it('reports a timeout when nobody dials in', async () => {
    const srv = await start();
    const r = await srv.waitForBot('alpha', 50);
    expect(!r.ok && r.code).toBe('timeout');
  });

  it('turns each bad frame into a malformed event and keeps the link open', async () => {
    const srv = await start();
    const { ws, link } = await connected(srv);
    const rec = record(link);
    ws.send('not json');
    ws.send(JSON.stringify({ type: 'moves', id: 'a', moves: [[1, 'x']], final: true }));
    ws.send(Buffer.from([0, 1]), { binary: true });
    ws.send(JSON.stringify({ type: 'moves', id: 'a', moves: 'UD', final: true }));
    await rec.until((e) => e.type === 'message');
    expect(rec.events.map((e) => e.type)).toEqual(['malformed', 'malformed', 'malformed', 'message']);
    expect(link.closed).toBe(false);
  });

  it('reports an oversized message as malformed, then closed', async () => {
    const srv = await start();
    const { ws, link } = await connected(srv);
    const rec = record(link);
    ws.send(JSON.stringify({ type: 'moves', id: 'a', moves: 'U'.repeat(4 * 1024 * 1024 + 1), final: true }));
    await rec.until((e) => e.type === 'closed');
    expect(rec.events).toEqual([
      { type: 'malformed', reason: 'message larger than 4 MiB' },
      { type: 'closed', reason: 'message larger than 4 MiB (code 1009)' },
    ]);
  });

  it('cuts off a bot that stops answering pings', async () => {
    const srv = await start({ pingIntervalMs: 50 });
    const waiting = srv.waitForBot('alpha', 5000);
    const { ws } = await dial(srv.url, { token: 'secret-a', autoPong: false });
    ws!.send(JSON.stringify(hello));
    const r = await waiting;
    if (!r.ok) throw new Error(r.reason);
    const rec = record(r.value);
    expect(await rec.until((e) => e.type === 'closed')).toEqual({ type: 'closed', reason: 'no pong: bot unresponsive' });
  });

  it('keeps a bot that answers pings', async () => {
    const srv = await start({ pingIntervalMs: 50 });
    const { link } = await connected(srv);
    await new Promise((r) => setTimeout(r, 400));
    expect(link.closed).toBe(false);
  });

  it('says bye and closes on close()', async () => {
    const srv = await start();
    const { ws, link } = await connected(srv);
    const bye = nextMessage(ws);
    ws.on('message', () => ws.close()); // a polite client closes on bye
    const rec = record(link);
    await link.close('match over');
    expect(await bye).toEqual({ type: 'bye', reason: 'match over' });
    expect(link.closed).toBe(true);
    expect(rec.events.at(-1)).toEqual({ type: 'closed', reason: 'match over' });
  });

  it('delivers a closed event that happened before anyone subscribed', async () => {
    const srv = await start();
    const { ws, link } = await connected(srv);
    const gone = new Promise((r) => ws.once('close', r));
    ws.close(1000);
    await gone;
    await new Promise((r) => setTimeout(r, 50));
    const rec = record(link);
    expect((await rec.until((e) => e.type === 'closed')).type).toBe('closed');
  });
});

describe('liveness while solving', () => {
  it('does not count missed pongs while a solve is outstanding, and does again after the answer', async () => {
    const srv = await start({ pingIntervalMs: 30 });
    const waiting = srv.waitForBot('alpha', 5000);
    const { ws } = await dial(srv.url, { token: 'secret-a', autoPong: false });
    ws!.send(JSON.stringify(hello));
    const r = await waiting;
    if (!r.ok) throw new Error(r.reason);
    const link = r.value;
    const rec = record(link);
    link.send({ type: 'solve', id: 'busy', puzzle: { kind: 'sliding', rows: 2, cols: 2, tiles: [1, 2, 0, 3] }, timeLimitMs: 1000, maxMoves: 9 });
    await new Promise((res) => setTimeout(res, 300));
    expect(link.closed).toBe(false);
    ws!.send(JSON.stringify({ type: 'moves', id: 'busy', moves: 'R', final: true }));
    expect(await rec.until((e) => e.type === 'closed')).toEqual({ type: 'closed', reason: 'no pong: bot unresponsive' });
  });
});
