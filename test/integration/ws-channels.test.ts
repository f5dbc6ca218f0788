/**
 * A bot's own channel into the arena server (the unix socket a sandbox binds in): it admits that bot
 * alone, holds a few connections at most, and leaves nothing behind once closed.
 */
import { existsSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { SUBPROTOCOL } from '../../src/protocol/messages.ts';
import { newToken } from '../../src/transport/tokens.ts';
import { startArenaServer, type ArenaServer } from '../../src/transport/ws-server.ts';

let server: ArenaServer;
beforeAll(async () => {
  server = await startArenaServer({ authenticate: () => undefined });
});
afterAll(async () => {
  await server.close();
});

/** Dials the channel at `socket` with `token`: 'open' or the refusal's HTTP status. */
function dial(socket: string, token: string): Promise<{ ws?: WebSocket; status: number | 'open' }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws+unix:${socket}:/`, [SUBPROTOCOL], { headers: { Authorization: `Bearer ${token}` } });
    ws.once('open', () => resolve({ ws, status: 'open' }));
    ws.once('unexpected-response', (_req, res) => resolve({ status: res.statusCode ?? 0 }));
    ws.once('error', () => resolve({ status: 0 }));
  });
}

describe('arena server channels', () => {
  it("channels - a channel admits its own bot's token and refuses another bot's, even a valid one", async () => {
    const channel = await server.openChannel('bot-a');
    const mine = newToken();
    const theirs = newToken();
    const revokeMine = server.allowToken(mine, 'bot-a');
    const revokeTheirs = server.allowToken(theirs, 'bot-b');
    try {
      expect((await dial(channel.socket, theirs)).status).toBe(401);
      expect((await dial(channel.socket, 'not-a-token')).status).toBe(401);
      const own = await dial(channel.socket, mine);
      expect(own.status).toBe('open');
      own.ws?.close();
    } finally {
      revokeMine();
      revokeTheirs();
      channel.close();
    }
  });

  it('channels - the socket is in a folder only the referee can enter, holds four connections at most, and is removed when closed', async () => {
    const channel = await server.openChannel('bot-c');
    const folder = channel.socket.slice(0, channel.socket.lastIndexOf('/'));
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    const sockets = Array.from({ length: 6 }, () => connect(channel.socket));
    const closed = await Promise.all(
      sockets.map((s) => new Promise<boolean>((resolve) => {
        s.once('close', () => resolve(true));
        s.once('error', () => undefined);
        setTimeout(() => resolve(false), 1000).unref();
      })),
    );
    // The first four wait for their upgrade; the server drops the rest at once.
    expect(closed.filter(Boolean)).toHaveLength(2);
    for (const s of sockets) s.destroy();
    channel.close();
    expect(existsSync(channel.socket)).toBe(false);
    expect(existsSync(folder)).toBe(false);
  });
});
