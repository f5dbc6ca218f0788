/**
 * Channels of the arena server: a unix socket per sandboxed bot, on which the server accepts that bot
 * alone. A sandboxed bot has no network; its channel is bound into its sandbox, and a relay there makes it
 * look like the usual TCP port, so the bot dials ARENA_URL unchanged.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Server, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';

/** A bot's own way in: a unix socket path. */
export interface Channel {
  readonly socket: string;
  /** Stops listening and removes the socket; links already made stay up. Idempotent. */
  close(): void;
}

/** Connections one channel holds at once: the bot's link, and room for a bot that dials again. */
const CHANNEL_CONNECTIONS = 4;

/** The channels of one server. */
export interface Channels {
  /** The identity a connection that came through a channel may take, or undefined for a TCP one. */
  boundTo(socket: Duplex): string | undefined;
  open(identity: string): Promise<Channel>;
  closeAll(): void;
}

/**
 * Channels whose connections are handed to `accept` (the HTTP server's 'connection'). Each socket lives in
 * a folder of its own that only the referee's user can enter; the socket itself is open to all (the bot
 * may run under another uid), which is safe because the folder is the way to it outside the sandbox.
 */
export function createChannels(accept: (socket: Socket) => void): Channels {
  const owner = new WeakMap<Duplex, string>();
  const open = new Set<{ server: Server; dir: string }>();
  const shut = (entry: { server: Server; dir: string }): void => {
    if (!open.delete(entry)) return;
    entry.server.close();
    rmSync(entry.dir, { recursive: true, force: true });
  };
  return {
    boundTo: (socket) => owner.get(socket),
    async open(identity) {
      const dir = mkdtempSync(join(tmpdir(), 'arena-ch-'));
      const socket = join(dir, 'referee.sock');
      const server = createServer((conn) => {
        conn.on('error', () => undefined);
        owner.set(conn, identity);
        accept(conn);
      });
      server.maxConnections = CHANNEL_CONNECTIONS;
      const entry = { server, dir };
      open.add(entry);
      try {
        await new Promise<void>((resolve, fail) => {
          server.once('error', fail);
          server.listen(socket, () => {
            server.off('error', fail);
            resolve();
          });
        });
        chmodSync(socket, 0o666);
      } catch (err) {
        shut(entry);
        throw err;
      }
      return { socket, close: () => shut(entry) };
    },
    closeAll() {
      for (const entry of [...open]) shut(entry);
    },
  };
}
