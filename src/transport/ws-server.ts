/**
 * The arena's WebSocket server. Bots dial in, authenticate with a bearer token during the HTTP upgrade
 * (refused with 401 before any WebSocket exists), speak the `puzzle-arena.v1` subprotocol, say hello, and
 * are handed to whoever waits for their identity.
 *
 * Admission is strict because the port may be reachable by others: a token admits one live connection at a
 * time; connections that have not completed their hello are capped in number (a new one past the cap gets
 * 503) and in time (the upgrade within `upgradeTimeoutMs`, the hello within `handshakeTimeoutMs`), so
 * slow or idle sockets cannot pile up. A sandboxed bot comes in through a channel of its own instead
 * (ws-channels.ts), admitted only as that bot.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { Result } from '../core/types.ts';
import { ok, reject } from '../core/types.ts';
import type { BotLink } from '../protocol/link.ts';
import { MAX_PAYLOAD, SUBPROTOCOL } from '../protocol/messages.ts';
import type { HandshakeOutcome } from './handshake.ts';
import { acceptWsConnection } from './ws-link.ts';
import { createChannels, type Channel } from './ws-channels.ts';

export type { Channel } from './ws-channels.ts';

/** Options of {@link startArenaServer}. */
export interface ArenaServerOptions {
  /** Interface to bind; 127.0.0.1 unless remote bots must reach it. */
  readonly host?: string;
  /** Port; 0 (default) picks a free one. */
  readonly port?: number;
  /** Largest accepted message in bytes; default MAX_PAYLOAD (4 MiB). */
  readonly maxPayload?: number;
  /** Time a connected bot has, after the upgrade, to send its hello; default 10 s. */
  readonly handshakeTimeoutMs?: number;
  /** Time from TCP connect to a completed WebSocket upgrade (slow or idle HTTP clients); default 5 s. */
  readonly upgradeTimeoutMs?: number;
  /**
   * Connections that have not yet completed their hello, at most; default 128: twice the most parallel
   * workers a match may have, so a match whose bots all start at once is never turned away.
   */
  readonly maxPendingConnections?: number;
  /** Ping period; a bot missing two pongs in a row is cut off. Default 5 s. */
  readonly pingIntervalMs?: number;
  /**
   * Maps a long-lived bot token to the bot's identity, or undefined to refuse it (HTTP 401). It must admit
   * only the tokens of bots taking part in the match this server runs (registered bots that are not playing
   * get 401 like strangers); the server itself lets each identity hold one live connection at a time.
   */
  authenticate(token: string): string | undefined;
}

/** A running arena server. */
export interface ArenaServer {
  /** ws://host:port/ — what a bot dials (ARENA_URL). */
  readonly url: string;
  readonly port: number;
  /** Largest accepted message, bytes. */
  readonly maxPayload: number;
  /**
   * Resolves with the next handshaken link of `identity` (one that dialled in earlier and is still open, or
   * the next to arrive), or a rejection on timeout, abort, a failed handshake of that identity, or close().
   */
  waitForBot(identity: string, timeoutMs: number, signal?: AbortSignal): Promise<Result<BotLink>>;
  /**
   * Accepts `token` once, as `identity`, in addition to `authenticate` (spawned bots get such one-time
   * tokens). Returns a function that revokes it if unused.
   */
  allowToken(token: string, identity: string): () => void;
  /** Listens also on a unix socket of `identity`'s own, for a sandboxed bot (see ws-channels.ts). */
  openChannel(identity: string): Promise<Channel>;
  /** Cuts every connection and stops listening. Idempotent. */
  close(): Promise<void>;
}

interface Waiter {
  settle(result: Result<BotLink>): void;
}

/** Extracts the token from `Authorization: Bearer …`, else from the `?token=` query parameter. */
function tokenOf(req: IncomingMessage): string | undefined {
  const auth = req.headers.authorization;
  const m = auth ? /^Bearer\s+(\S+)\s*$/i.exec(auth) : null;
  if (m) return m[1];
  try {
    return new URL(req.url ?? '/', 'http://localhost').searchParams.get('token') ?? undefined;
  } catch {
    return undefined;
  }
}

function refuse(socket: Duplex, status: number, text: string, body: string): void {
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: text/plain\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  socket.once('error', () => undefined);
}

/** Starts the server (127.0.0.1, free port by default) and resolves once it listens. */
export async function startArenaServer(opts: ArenaServerOptions): Promise<ArenaServer> {
  const maxPayload = opts.maxPayload ?? MAX_PAYLOAD;
  const handshakeTimeoutMs = opts.handshakeTimeoutMs ?? 10_000;
  const pingIntervalMs = opts.pingIntervalMs ?? 5_000;
  const upgradeTimeoutMs = opts.upgradeTimeoutMs ?? 5_000;
  const maxPending = opts.maxPendingConnections ?? 128;
  const oneTime = new Map<string, string>();
  const waiters = new Map<string, Waiter[]>();
  const ready = new Map<string, BotLink[]>();
  /** Identities with a connection that is upgraded and not yet closed: one each. */
  const live = new Set<string>();
  /** Sockets that have not completed their hello, with the timer that cuts them if they stall before the upgrade. */
  const pending = new Map<Duplex, NodeJS.Timeout | undefined>();
  let closed = false;
  const admitted = (socket: Duplex): void => {
    clearTimeout(pending.get(socket));
    pending.delete(socket);
  };

  const wss = new WebSocketServer({
    noServer: true,
    maxPayload,
    perMessageDeflate: false,
    handleProtocols: (protocols) => (protocols.has(SUBPROTOCOL) ? SUBPROTOCOL : false),
  });
  const http = createServer((_req, res) => {
    res.writeHead(426, { 'Content-Type': 'text/plain', Upgrade: 'websocket', Connection: 'close' });
    res.end(`puzzle-arena: connect with a WebSocket, subprotocol ${SUBPROTOCOL}\n`);
  });

  const channels = createChannels((socket) => http.emit('connection', socket));
  http.on('connection', (socket: Socket) => {
    socket.on('error', () => undefined);
    if (pending.size >= maxPending) {
      refuse(socket, 503, 'Service Unavailable', 'too many connections waiting to authenticate\n');
      setTimeout(() => socket.destroy(), 1000).unref();
      return;
    }
    const timer = setTimeout(() => socket.destroy(), upgradeTimeoutMs);
    timer.unref();
    pending.set(socket, timer);
    socket.once('close', () => admitted(socket));
  });

  const deliver = (identity: string, outcome: HandshakeOutcome): void => {
    const queue = waiters.get(identity);
    const waiter = queue?.shift();
    if (queue && queue.length === 0) waiters.delete(identity);
    if (!outcome.ok) {
      waiter?.settle(reject(outcome.code, `bot ${identity} failed the handshake: ${outcome.reason}`));
      return;
    }
    if (waiter) return waiter.settle(ok(outcome.link));
    const list = ready.get(identity) ?? [];
    list.push(outcome.link);
    ready.set(identity, list);
  };

  const upgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    socket.on('error', () => undefined);
    if (closed) return refuse(socket, 503, 'Service Unavailable', 'arena is shutting down\n');
    const token = tokenOf(req);
    let identity: string | undefined;
    if (token !== undefined) {
      identity = oneTime.get(token);
      if (identity !== undefined) oneTime.delete(token);
      else {
        try {
          identity = opts.authenticate(token);
        } catch {
          identity = undefined; // a failing lookup is a refusal, not a crash
        }
      }
    }
    if (identity === undefined) {
      return refuse(socket, 401, 'Unauthorized', 'missing or wrong bot token (Authorization: Bearer <token>)\n');
    }
    const bound = channels.boundTo(socket);
    if (bound !== undefined && bound !== identity) {
      return refuse(socket, 401, 'Unauthorized', 'this channel belongs to another bot\n');
    }
    if (live.has(identity)) {
      return refuse(socket, 401, 'Unauthorized', 'this token already has a live connection\n');
    }
    const offered = (req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
    if (!offered.includes(SUBPROTOCOL)) {
      return refuse(socket, 400, 'Bad Request', `subprotocol ${SUBPROTOCOL} required\n`);
    }
    const who = identity;
    live.add(who);
    // The slot frees as soon as the connection is over for the referee (a failed hello, the link's end),
    // not only when the socket has finished closing, so a bot turned away may dial again at once.
    let released = false;
    const release = (): void => {
      if (!released) live.delete(who);
      released = true;
    };
    socket.once('close', release);
    // From here the hello timer of the link governs; the socket still counts as pending until its hello.
    clearTimeout(pending.get(socket));
    wss.handleUpgrade(req, socket, head, (ws) => {
      const session = randomUUID();
      acceptWsConnection(ws, { session, maxPayload, handshakeTimeoutMs, pingIntervalMs, socket }, (o) => {
        admitted(socket);
        if (!o.ok) release();
        else o.link.onEvent((e) => e.type === 'closed' && release());
        deliver(who, o);
      });
    });
  };
  http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    try {
      upgrade(req, socket, head);
    } catch {
      socket.destroy(); // a referee bug exposed by a request must not end the process
    }
  });

  await new Promise<void>((resolve, fail) => {
    http.once('error', fail);
    http.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => {
      http.off('error', fail);
      resolve();
    });
  });
  const address = http.address() as AddressInfo;
  const hostForUrl = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  return {
    url: `ws://${hostForUrl}:${address.port}/`,
    port: address.port,
    maxPayload,
    waitForBot(identity, timeoutMs, signal) {
      const list = ready.get(identity);
      while (list && list.length > 0) {
        const link = list.shift()!;
        if (!link.closed) return Promise.resolve(ok(link));
      }
      if (closed) return Promise.resolve(reject('closed', 'arena server is closed'));
      return new Promise<Result<BotLink>>((resolve) => {
        const waiter: Waiter = {
          settle(result) {
            clearTimeout(timer);
            signal?.removeEventListener('abort', onAbort);
            resolve(result);
          },
        };
        const drop = (result: Result<BotLink>): void => {
          const queue = waiters.get(identity);
          const i = queue?.indexOf(waiter) ?? -1;
          if (i >= 0) queue!.splice(i, 1);
          waiter.settle(result);
        };
        const onAbort = (): void => drop(reject('aborted', `stopped waiting for bot ${identity}`));
        const timer = setTimeout(
          () => drop(reject('timeout', `bot ${identity} did not connect and say hello within ${timeoutMs} ms`)),
          timeoutMs,
        );
        if (signal?.aborted) return onAbort();
        signal?.addEventListener('abort', onAbort, { once: true });
        const queue = waiters.get(identity) ?? [];
        queue.push(waiter);
        waiters.set(identity, queue);
      });
    },
    openChannel: (identity) => channels.open(identity),
    allowToken(token, identity) {
      oneTime.set(token, identity);
      return () => {
        if (oneTime.get(token) === identity) oneTime.delete(token);
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const queue of waiters.values()) for (const w of queue) w.settle(reject('closed', 'arena server closed'));
      waiters.clear();
      ready.clear();
      for (const ws of wss.clients) {
        ws.close(1001, 'arena server closed');
        setTimeout(() => ws.terminate(), 500).unref();
      }
      wss.close();
      channels.closeAll();
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}
