/**
 * Seeded fuzzing of everything that reads a bot's bytes: the parser, the stdio link and the WebSocket link
 * (real server, real sockets), including their handshakes. Tens of thousands of random and mutated messages;
 * the test fails if any input throws out of a link (the referee process would die), if a link delivers a
 * message it must not, or if the guard had to catch a referee error. Fixed seeds: a failure replays exactly.
 */
import fc from 'fast-check';
import { connect } from 'node:net';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { BotLink, LinkEvent } from '../../src/protocol/link.ts';
import { SUBPROTOCOL } from '../../src/protocol/messages.ts';
import { parseBotMessage, parseRefereeMessage } from '../../src/protocol/schema.ts';
import { newRequestId } from '../../src/referee/solve-one.ts';
import { checkHello } from '../../src/transport/handshake.ts';
import { openStdioLink } from '../../src/transport/stdio-link.ts';
import { newToken } from '../../src/transport/tokens.ts';
import { startArenaServer, type ArenaServer } from '../../src/transport/ws-server.ts';
import { firstMessage, HELLO, hostileMessage, type MessageTemplate } from '../helpers/message-fuzz.ts';

const solve = (id: string) => ({ type: 'solve' as const, id, puzzle: { kind: 'sliding' as const, rows: 2, cols: 2, tiles: [1, 2, 0, 3] }, timeLimitMs: 1000, maxMoves: 9 });
const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

/**
 * What must hold of a link's events whatever the bot sent: nothing after `closed`, `closed` right after a
 * `malformed`, only answers to ids the referee sent, at most one ending answer per id, and no malformed
 * event that says the referee itself failed (the guard caught an exception: a bug some input exposes).
 */
function checkEvents(events: readonly LinkEvent[], sentIds: ReadonlySet<string>): void {
  const ended = new Set<string>();
  events.forEach((e, i) => {
    if (e.type === 'closed') expect(i, 'closed is last').toBe(events.length - 1);
    if (e.type === 'malformed') {
      expect(events[i + 1]?.type, 'malformed is followed by closed').toBe('closed');
      expect(e.reason).not.toMatch(/referee failed/);
    }
    if (e.type === 'message') {
      expect(e.message.type).not.toBe('hello');
      const id = (e.message as { id: string }).id;
      expect(sentIds.has(id), `delivered an answer for unknown id ${id}`).toBe(true);
      expect(ended.has(id), `delivered a second ending answer for ${id}`).toBe(false);
      if (e.message.type !== 'moves' || e.message.final) ended.add(id);
    }
  });
}

/** A plan: the first message, then the bot's messages; the referee cancels and re-asks at `cancelAt`. */
const plan = fc.record({
  first: firstMessage,
  rest: fc.array(hostileMessage, { minLength: 1, maxLength: 8 }),
  cancelAt: fc.nat(8),
  splits: fc.array(fc.nat(65535), { maxLength: 3 }),
  /** WebSocket: which message goes out as a binary frame (-1: none). */
  binaryAt: fc.integer({ min: -1, max: 8 }),
});
type Plan = typeof plan extends fc.Arbitrary<infer T> ? T : never;

describe('fuzz - parser', () => {
  it('parseBotMessage, parseRefereeMessage and checkHello never throw, and what they accept is a message (30,000 inputs)', () => {
    const ids = { open: 'open-id', old: 'old-id' };
    fc.assert(
      fc.property(fc.oneof(hostileMessage, firstMessage), (t: MessageTemplate) => {
        const text = t(ids).toString('utf8');
        const bot = parseBotMessage(text);
        parseRefereeMessage(text);
        const hello = checkHello(text);
        if (bot.ok) {
          expect(['hello', 'moves', 'give-up', 'unsupported']).toContain(bot.message.type);
          expect(parseBotMessage(JSON.stringify(bot.message)).ok).toBe(true);
        }
        if (hello.ok) expect([1, 2]).toContain(hello.value.protocol);
      }),
      { seed: 0x8a, numRuns: 30_000 },
    );
  });
});

describe('fuzz - stdio link', () => {
  it('no input throws out of the link or breaks its rules (3,000 sessions, about 15,000 messages)', async () => {
    await fc.assert(
      fc.asyncProperty(plan, async (p) => {
        const input = new PassThrough();
        const output = new PassThrough();
        input.resume();
        const opening = openStdioLink({ input, output }, { session: 's', maxPayload: 256 * 1024, handshakeTimeoutMs: 1000, closeGraceMs: 5 });
        output.write(Buffer.concat([p.first({ open: '', old: '' }), Buffer.from('\n')]));
        await tick();
        output.write('\n'); // a first message without a newline of its own ends here
        const o = await opening;
        if (!o.ok) return void output.end();
        const events: LinkEvent[] = [];
        o.link.onEvent((e) => events.push(e));
        const sentIds = new Set<string>();
        let ids = { open: newRequestId(), old: newRequestId() };
        sentIds.add(ids.open);
        o.link.send(solve(ids.open));
        for (let i = 0; i < p.rest.length && !o.link.closed; i++) {
          if (i === p.cancelAt) {
            o.link.send({ type: 'cancel', id: ids.open });
            ids = { open: newRequestId(), old: ids.open };
            sentIds.add(ids.open);
            o.link.send(solve(ids.open));
          }
          const bytes = Buffer.concat([p.rest[i]!(ids), Buffer.from('\n')]);
          // The same bytes in up to four writes: lines must not depend on how the pipe cuts them.
          let at = 0;
          for (const s of [...p.splits].sort((a, b) => a - b)) {
            const cut = Math.floor((s / 65536) * bytes.length);
            output.write(bytes.subarray(at, cut));
            at = cut;
          }
          output.write(bytes.subarray(at));
          await tick();
        }
        output.end();
        await tick();
        await tick();
        checkEvents(events, sentIds);
      }),
      { seed: 0x8b, numRuns: 3_000 },
    );
  }, 120_000);
});

describe('fuzz - WebSocket link and handshake', () => {
  let server: ArenaServer;
  beforeAll(async () => {
    server = await startArenaServer({ authenticate: () => undefined, handshakeTimeoutMs: 2000, pingIntervalMs: 60_000 });
  });
  afterAll(async () => {
    await server.close();
  });

  /** Runs one plan over a real connection; resolves once the referee's side has seen it all. */
  async function session(p: Plan): Promise<void> {
    const token = newToken();
    const identity = `fuzz-${token.slice(0, 12)}`;
    server.allowToken(token, identity);
    const waiting = server.waitForBot(identity, 10_000);
    const ws = new WebSocket(server.url, SUBPROTOCOL, { headers: { Authorization: `Bearer ${token}` } });
    ws.on('error', () => undefined);
    const gone = new Promise<void>((r) => ws.once('close', () => r()));
    await new Promise<void>((r) => ws.once('open', () => r()).once('close', () => r()));
    const sentIds = new Set<string>();
    let ids = { open: '', old: '' };
    let sendNext: () => void = () => undefined;
    ws.on('message', (d) => {
      const m = JSON.parse(d.toString());
      if (m.type === 'solve') {
        ids = { open: m.id, old: ids.open };
        sendNext();
      }
    });
    ws.send(p.first(ids), { binary: false });
    const r = await waiting;
    if (!r.ok) {
      ws.terminate();
      return;
    }
    const link: BotLink = r.value;
    const events: LinkEvent[] = [];
    const closed = new Promise<void>((res) => link.onEvent((e) => (events.push(e), e.type === 'closed' && res())));
    let i = 0;
    sendNext = () => {
      // One message per solve round trip: the bot's message, then the referee's next move.
      if (i >= p.rest.length || ws.readyState !== WebSocket.OPEN) return void ws.close();
      const bytes = p.rest[i]!(ids);
      ws.send(bytes, { binary: i === p.binaryAt });
      i++;
      setImmediate(() => {
        if (link.closed) return;
        if (i === p.cancelAt) link.send({ type: 'cancel', id: ids.open });
        const next = newRequestId();
        sentIds.add(next);
        link.send(solve(next));
      });
    };
    const first = newRequestId();
    sentIds.add(first);
    link.send(solve(first));
    await closed;
    await gone;
    checkEvents(events, sentIds);
  }

  it('no frame throws out of the link or breaks its rules (400 connections, about 2,500 messages)', async () => {
    await fc.assert(fc.asyncProperty(plan, session), { seed: 0x8c, numRuns: 400 });
  }, 120_000);

  it('random bytes after the upgrade never take the server down (200 raw connections)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 300 }), fc.boolean(), async (junk, withHello) => {
        const token = newToken();
        server.allowToken(token, `raw-${token.slice(0, 12)}`);
        const sock = connect(server.port, '127.0.0.1');
        sock.on('error', () => undefined);
        sock.resume(); // read what the server says, or its end is never seen
        const done = new Promise<void>((r) => sock.once('close', () => r()));
        sock.write(
          `GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${Buffer.alloc(16, 1).toString('base64')}\r\n` +
            `Sec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: ${SUBPROTOCOL}\r\nAuthorization: Bearer ${token}\r\n\r\n`,
        );
        if (withHello) sock.write(maskedText(JSON.stringify(HELLO)));
        sock.write(junk);
        setTimeout(() => sock.end(), 20);
        await done;
      }),
      { seed: 0x8d, numRuns: 200 },
    );
    // Still serving: a proper bot gets in and is handed over.
    const token = newToken();
    server.allowToken(token, 'after-raw');
    const waiting = server.waitForBot('after-raw', 5000);
    const ws = new WebSocket(server.url, SUBPROTOCOL, { headers: { Authorization: `Bearer ${token}` } });
    ws.on('open', () => ws.send(JSON.stringify(HELLO)));
    expect((await waiting).ok).toBe(true);
    ws.terminate();
  }, 120_000);
});

/** A masked client text frame (as a client must send it), small payloads only. */
function maskedText(text: string): Buffer {
  const payload = Buffer.from(text);
  const mask = Buffer.from([1, 2, 3, 4]);
  const header = payload.length < 126 ? Buffer.from([0x81, 0x80 | payload.length]) : Buffer.from([0x81, 0x80 | 126, payload.length >> 8, payload.length & 255]);
  return Buffer.concat([header, mask, payload.map((b, i) => b ^ mask[i % 4]!)]);
}
