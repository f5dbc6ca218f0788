/**
 * One accepted WebSocket connection: the handshake, liveness pings, and turning frames into link events.
 * Every handler runs inside a guard, so no frame, however malformed, can throw into the event loop: before
 * the hello a failure turns the bot away, after it a failure is a protocol violation that ends the link.
 */
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import type { HelloMessage } from '../protocol/messages.ts';
import { formatBytes } from '../protocol/bounds.ts';
import type { HandshakeOutcome } from './handshake.ts';
import { checkHello, welcomeMessage } from './handshake.ts';
import { describeError, LinkCore } from './link-core.ts';

/** Tunables of one connection. */
export interface WsLinkOptions {
  readonly session: string;
  readonly maxPayload: number;
  readonly handshakeTimeoutMs: number;
  readonly pingIntervalMs: number;
  /** How long a close waits for the bot's closing handshake before cutting the socket. */
  readonly closeGraceMs?: number;
  /**
   * The connection's socket, when the caller has it: messages sent in one turn of the event loop (a result
   * and the next solve) then leave in one write, which wakes the bot once instead of twice.
   */
  readonly socket?: Duplex;
}

/**
 * Pings a bot may send per second. Libraries ping every few seconds at most; a bot that floods control
 * frames makes the referee answer each one, so past this it is a protocol violation.
 */
export const MAX_PINGS_PER_SECOND = 20;

/** Close reasons are limited to 123 bytes by RFC 6455. */
function closeReason(text: string): string {
  return Buffer.from(text).subarray(0, 120).toString('utf8').replace(/\uFFFD$/, '');
}

function frameText(data: unknown): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data as Buffer[]).toString('utf8');
  return Buffer.from(data as ArrayBuffer).toString('utf8');
}

/** What ws reports for a frame it refused, in the words of PROTOCOL.md. */
function frameError(err: Error & { code?: string }, maxPayload: number): string {
  if (err.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') return `message larger than ${formatBytes(maxPayload)}`;
  if (err.code === 'WS_ERR_INVALID_UTF8') return 'text frame is not valid UTF-8';
  return `bad frame: ${err.message}`;
}

/**
 * Runs the handshake on a freshly upgraded socket and calls `done` exactly once: with the live link after
 * a valid hello (the welcome is already sent), or with the reason the bot was turned away.
 */
export function acceptWsConnection(ws: WebSocket, opts: WsLinkOptions, done: (outcome: HandshakeOutcome) => void): void {
  const graceMs = opts.closeGraceMs ?? 1000;
  let core: LinkCore | undefined;
  let settled = false;
  let missedPongs = 0;
  let pinger: NodeJS.Timeout | undefined;
  let pingWindowStart = 0;
  let pingsInWindow = 0;

  /** Turns the bot away; `byBot` when what it sent broke the protocol (else it was silent or left). */
  const fail = (reason: string, closeCode: number, byBot: boolean): void => {
    if (settled) return;
    settled = true;
    clearTimeout(handshakeTimer);
    ws.close(closeCode, closeReason(reason));
    // A bot that ignores the close must not hold the socket open.
    setTimeout(() => ws.terminate(), graceMs).unref();
    done({ ok: false, code: byBot ? 'protocol' : 'handshake', reason });
  };
  const handshakeTimer = setTimeout(() => fail(`no hello within ${opts.handshakeTimeoutMs} ms`, 1008, false), opts.handshakeTimeoutMs);

  /** Runs a socket event handler so that nothing it throws escapes into the event loop. */
  const guarded =
    <A extends unknown[]>(fn: (...args: A) => void) =>
    (...args: A): void => {
      if (core) return core.guard(() => fn(...args));
      try {
        fn(...args);
      } catch (e) {
        fail(`the referee failed to handle the handshake (${describeError(e)})`, 1011, false);
      }
    };

  // Corked on the first write of a turn of the event loop and uncorked at its end (setImmediate: after every
  // promise job of the turn, which is where the next solve is sent; process.nextTick would run before them).
  // ws corks each frame itself; the outer cork holds them all until then.
  const socket = opts.socket;
  let corked = false;
  const uncork = (): void => {
    corked = false;
    socket?.uncork();
  };

  const startLink = (hello: HelloMessage): void => {
    settled = true;
    clearTimeout(handshakeTimer);
    const link = new LinkCore(
      hello,
      {
        write: (text) => {
          if (ws.readyState !== ws.OPEN) return;
          if (socket && !corked) {
            corked = true;
            socket.cork();
            setImmediate(uncork);
          }
          ws.send(text);
        },
        flush: () => {
          if (corked) uncork();
        },
        end: (reason, violation) => ws.close(violation ? 1008 : 1000, closeReason(reason)),
        kill: () => ws.terminate(),
      },
      graceMs,
    );
    core = link;
    link.send(welcomeMessage(opts.session, opts.maxPayload, hello.protocol));
    pinger = setInterval(() => {
      // Two unanswered pings: the bot's event loop is stuck or the network is gone. While a solve is
      // outstanding a bot may be deep in a synchronous search; the time limit governs that phase.
      if (link.outstanding > 0) missedPongs = 0;
      if (missedPongs >= 2) {
        ws.terminate();
        link.ended('no pong: bot unresponsive');
        return;
      }
      missedPongs++;
      ws.ping();
    }, opts.pingIntervalMs);
    pinger.unref();
    done({ ok: true, link });
  };

  ws.on('pong', () => {
    missedPongs = 0;
  });

  ws.on(
    'ping',
    guarded(() => {
      const now = Date.now();
      if (now - pingWindowStart >= 1000) {
        pingWindowStart = now;
        pingsInWindow = 0;
      }
      if (++pingsInWindow <= MAX_PINGS_PER_SECOND) return;
      const reason = `ping flood: more than ${MAX_PINGS_PER_SECOND} pings in a second`;
      if (core) core.violation(reason);
      else fail(reason, 1008, true);
    }),
  );

  ws.on(
    'message',
    guarded((data: unknown, isBinary: boolean) => {
      if (core) {
        if (isBinary) return core.violation('binary frame; messages are JSON text frames');
        return core.receive(frameText(data));
      }
      if (settled) return; // turned away; ignore whatever is still in flight
      if (isBinary) return fail('bad hello: a binary frame', 1003, true);
      const hello = checkHello(frameText(data));
      if (!hello.ok) return fail(hello.reason, 1002, true);
      startLink(hello.value);
    }),
  );

  ws.on(
    'error',
    guarded((err: Error & { code?: string }) => {
      // ws reports a refused frame here and then closes the socket itself (1009 oversize, 1007 bad UTF-8).
      const reason = frameError(err, opts.maxPayload);
      if (core) core.violation(reason);
      else fail(`bad hello: ${reason}`, 1002, true);
    }),
  );

  ws.on(
    'close',
    guarded((code: number, reasonBuf: Buffer) => {
      clearTimeout(handshakeTimer);
      if (pinger) clearInterval(pinger);
      if (!settled) fail(`connection closed before hello (code ${code})`, 1008, false);
      const said = reasonBuf.length ? `: ${reasonBuf.toString('utf8')}` : '';
      core?.ended(`connection closed (code ${code}${said})`);
    }),
  );
}
