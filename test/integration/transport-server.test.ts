import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { BotLink, LinkEvent } from '../../src/protocol/link.ts';
import { SUBPROTOCOL } from '../../src/protocol/messages.ts';
import type { ArenaServer } from '../../src/transport/ws-server.ts';
import { startArenaServer } from '../../src/transport/ws-server.ts';

const TOKENS: Record<string, string> = { 'secret-a': 'alpha', 'secret-b': 'beta' };
const hello = { type: 'hello', protocol: 2, name: 'alpha', version: '1', capabilities: [{ kind: 'sliding', maxSize: 3 }] };

let server: ArenaServer | undefined;
const sockets: WebSocket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.terminate();
  await server?.close();
  server = undefined;
});

async function start(
  opts: { pingIntervalMs?: number; handshakeTimeoutMs?: number; upgradeTimeoutMs?: number; maxPendingConnections?: number } = {},
): Promise<ArenaServer> {
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
    expect(w).toMatchObject({ type: 'welcome', protocol: 2, limits: { maxPayload: 4 * 1024 * 1024 } });
    expect(typeof w.session).toBe('string');
    expect(ws!.protocol).toBe(SUBPROTOCOL);
    const r = await waiting;
    expect(r.ok && r.value.hello).toEqual(hello);
  });

  it('speaks protocol 1 to a protocol-1 bot and keeps its maxSize as the cells that version counted', async () => {
    const srv = await start();
    const waiting = srv.waitForBot('alpha', 5000);
    const { ws } = await dial(srv.url, { token: 'secret-a' });
    const welcome = nextMessage(ws!);
    ws!.send(JSON.stringify({ ...hello, protocol: 1, capabilities: [{ kind: 'sliding', maxSize: 9 }, { kind: 'hanoi', maxSize: 12 }] }));
    expect(await welcome).toMatchObject({ type: 'welcome', protocol: 1 });
    const r = await waiting;
    expect(r.ok && r.value.hello.capabilities).toEqual([{ kind: 'sliding', maxCells: 9 }, { kind: 'hanoi', maxSize: 12 }]);
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
    ws!.send(JSON.stringify({ ...hello, protocol: 3 }));
    const r = await waiting;
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toMatch(/unsupported protocol 3; this referee speaks 1 and 2/);
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

  const solve = (id: string) => ({ type: 'solve' as const, id, puzzle: { kind: 'sliding' as const, rows: 2, cols: 2, tiles: [1, 2, 0, 3] }, timeLimitMs: 1000, maxMoves: 9 });

  it('delivers answers to open requests and drops late ones for cancelled requests', async () => {
    const srv = await start();
    const { ws, link } = await connected(srv);
    const rec = record(link);
    link.send(solve('a'));
    link.send({ type: 'cancel', id: 'a' });
    link.send(solve('b'));
    ws.send(JSON.stringify({ type: 'moves', id: 'a', moves: 'U', final: false }));
    ws.send(JSON.stringify({ type: 'moves', id: 'b', moves: 'UD', final: true }));
    await rec.until((e) => e.type === 'message');
    expect(rec.events).toEqual([{ type: 'message', message: { type: 'moves', id: 'b', moves: 'UD', final: true } }]);
    expect(link.closed).toBe(false);
  });

  const violations: Array<[string, (ws: WebSocket) => void, string]> = [
    ['text that is not JSON', (ws) => ws.send('not json'), 'not JSON'],
    ['a bad pair', (ws) => ws.send(JSON.stringify({ type: 'moves', id: 'a', moves: [[1, 'x']], final: true })), 'moves: expected'],
    ['a binary frame', (ws) => ws.send(Buffer.from([0, 1]), { binary: true }), 'binary frame'],
    ['a text frame that is not UTF-8', (ws) => ws.send(Buffer.from([0x7b, 0xff, 0x7d]), { binary: false }), 'not valid UTF-8'],
    ['a message larger than 4 MiB', (ws) => ws.send(JSON.stringify({ type: 'moves', id: 'a', moves: 'U'.repeat(4 * 1024 * 1024 + 1), final: true })), 'message larger than 4 MiB'],
    ['a type nested 100,000 deep', (ws) => ws.send(`{"type":${'['.repeat(100_000)}${']'.repeat(100_000)}}`), 'nesting deeper than 8'],
    ['an answer for an id never sent', (ws) => ws.send(JSON.stringify({ type: 'give-up', id: 'guess' })), 'not open'],
    ['a second hello', (ws) => ws.send(JSON.stringify(hello)), 'unexpected hello'],
    ['a ping flood', (ws) => { for (let i = 0; i < 100; i++) ws.ping(); }, 'ping flood'],
  ];
  it.each(violations)('ends the link on %s: one malformed, then closed, with bye and close code 1008', async (_name, misbehave, reason) => {
    const srv = await start();
    const { ws, link } = await connected(srv);
    const rec = record(link);
    const said: any[] = [];
    ws.on('message', (d) => said.push(JSON.parse(d.toString())));
    const code = new Promise<number>((r) => ws.once('close', (c) => r(c)));
    link.send(solve('a'));
    misbehave(ws);
    await rec.until((e) => e.type === 'closed');
    expect(rec.events.map((e) => e.type)).toEqual(['malformed', 'closed']);
    expect(rec.events[0]!.type === 'malformed' && rec.events[0]!.reason).toContain(reason);
    expect(rec.events[1]!.type === 'closed' && rec.events[1]!.reason).toMatch(/^protocol violation: /);
    expect(link.closed).toBe(true);
    // ws itself closes with 1009 (too big) or 1007 (bad UTF-8) before the referee's 1008 when it refuses a frame.
    expect([1007, 1008, 1009]).toContain(await code);
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

describe('admission', () => {
  /** A raw TCP connection to the server that reads (and keeps) whatever the server says. */
  function raw(srv: ArenaServer): { sock: Socket; said: () => string; closed: Promise<void> } {
    const sock = connect(srv.port, '127.0.0.1');
    let text = '';
    sock.on('data', (d) => (text += d.toString('latin1')));
    sock.on('error', () => undefined);
    const closed = new Promise<void>((r) => sock.once('close', () => r()));
    return { sock, said: () => text, closed };
  }

  it('lets a token hold one live connection: a second dial gets 401 until the first is over', async () => {
    const srv = await start();
    const { ws } = await connected(srv);
    expect((await dial(srv.url, { token: 'secret-a' })).status).toBe(401);
    expect((await dial(srv.url, { token: 'secret-b' })).ws).toBeDefined(); // another bot's token is its own
    const gone = new Promise((r) => ws.once('close', r));
    ws.close();
    await gone;
    await new Promise((r) => setTimeout(r, 50));
    expect((await dial(srv.url, { token: 'secret-a' })).ws).toBeDefined();
  });

  it('frees the slot as soon as a hello is refused, so the bot can dial again at once', async () => {
    const srv = await start();
    const waiting = srv.waitForBot('alpha', 5000);
    const { ws } = await dial(srv.url, { token: 'secret-a' });
    ws!.send(`{"type":"hello","name":${'['.repeat(1000)}${']'.repeat(1000)}}`);
    expect(!(await waiting).ok).toBe(true);
    await connected(srv);
  });

  it('caps connections that have not said hello in number (503 past the cap) and in time', async () => {
    const srv = await start({ maxPendingConnections: 3, upgradeTimeoutMs: 300, handshakeTimeoutMs: 300 });
    const idle = [raw(srv), raw(srv), raw(srv)];
    await new Promise((r) => setTimeout(r, 50));
    const extra = raw(srv);
    await extra.closed;
    expect(extra.said()).toMatch(/^HTTP\/1\.1 503 /);
    // The idle ones are cut once their time is up, and a real bot gets in again.
    await Promise.all(idle.map((c) => c.closed));
    await connected(srv);
  });

  it('cuts a slowloris client that sends its upgrade request a byte at a time', async () => {
    const srv = await start({ upgradeTimeoutMs: 300 });
    const c = raw(srv);
    const request = `GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${Buffer.alloc(16, 1).toString('base64')}\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: ${SUBPROTOCOL}\r\nAuthorization: Bearer secret-a\r\n\r\n`;
    let i = 0;
    const drip = setInterval(() => (i < request.length && !c.sock.destroyed ? c.sock.write(request[i++]!) : clearInterval(drip)), 20);
    await c.closed;
    clearInterval(drip);
    expect(i).toBeLessThan(request.length);
    expect(c.said()).not.toMatch(/101 Switching Protocols/);
  });

  it('cuts a client that upgrades and then never says hello', async () => {
    const srv = await start({ handshakeTimeoutMs: 200 });
    const { ws } = await dial(srv.url, { token: 'secret-a' });
    const code = await new Promise<number>((r) => ws!.once('close', (c) => r(c)));
    expect(code).toBe(1008);
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
