/**
 * One accepted WebSocket connection: the hello/welcome handshake, liveness pings, and turning frames into
 * link events. Everything a bot sends is validated here; nothing it sends can throw into the referee.
 */
import type { WebSocket } from 'ws';
import type { BotLink, LinkEvent } from '../protocol/link.ts';
import type { HelloMessage, RefereeMessage } from '../protocol/messages.ts';
import { PROTOCOL_VERSION } from '../protocol/messages.ts';
import { parseBotMessage } from '../protocol/schema.ts';
import { LinkEvents } from './link-events.ts';

/** Tunables of one connection. */
export interface WsLinkOptions {
  readonly session: string;
  readonly maxPayload: number;
  readonly handshakeTimeoutMs: number;
  readonly pingIntervalMs: number;
  /** How long close() waits for the bot's closing handshake before cutting the socket. */
  readonly closeGraceMs?: number;
}

/** How a handshake ended. */
export type HandshakeOutcome = { readonly ok: true; readonly link: BotLink } | { readonly ok: false; readonly reason: string };

/** "4 MiB" for 4·2^20: the unit people read in PROTOCOL.md. */
export function formatBytes(n: number): string {
  if (n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}

/** Close reasons are limited to 123 bytes by RFC 6455. */
function closeReason(text: string): string {
  return Buffer.from(text).subarray(0, 120).toString('utf8').replace(/\uFFFD$/, '');
}

function frameText(data: unknown): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data as Buffer[]).toString('utf8');
  return Buffer.from(data as ArrayBuffer).toString('utf8');
}

/**
 * Runs the handshake on a freshly upgraded socket and calls `done` exactly once: with the live link after
 * a valid hello (the welcome is already sent), or with the reason the bot was turned away.
 */
export function acceptWsConnection(ws: WebSocket, opts: WsLinkOptions, done: (outcome: HandshakeOutcome) => void): void {
  const events = new LinkEvents();
  let link: BotLink | undefined;
  let settled = false;
  let closing: string | undefined;
  let oversize = false;
  let missedPongs = 0;
  let pinger: NodeJS.Timeout | undefined;

  const fail = (reason: string, code = 1008): void => {
    if (settled) return;
    settled = true;
    clearTimeout(handshakeTimer);
    ws.close(code, closeReason(reason));
    // A bot that ignores the close must not hold the socket open.
    setTimeout(() => ws.terminate(), 1000).unref();
    done({ ok: false, reason });
  };
  const handshakeTimer = setTimeout(
    () => fail(`no hello within ${opts.handshakeTimeoutMs} ms`),
    opts.handshakeTimeoutMs,
  );

  /**
   * Solves sent and not yet answered or cancelled. While one is outstanding, missed pongs are not counted:
   * a bot deep in a synchronous search cannot answer pings, and the time limit already governs that phase.
   */
  const outstanding = new Set<string>();
  const send = (message: RefereeMessage): void => {
    if (ws.readyState !== ws.OPEN) return;
    if (message.type === 'solve') outstanding.add(message.id);
    else if (message.type === 'cancel') outstanding.delete(message.id);
    ws.send(JSON.stringify(message));
  };

  const startLink = (hello: HelloMessage): void => {
    settled = true;
    clearTimeout(handshakeTimer);
    send({ type: 'welcome', protocol: PROTOCOL_VERSION, session: opts.session, limits: { maxPayload: opts.maxPayload } });
    pinger = setInterval(() => {
      // Two unanswered pings: the bot's event loop is stuck or the network is gone.
      if (outstanding.size > 0) missedPongs = 0;
      if (missedPongs >= 2) {
        closing ??= 'no pong: bot unresponsive';
        ws.terminate();
        return;
      }
      missedPongs++;
      ws.ping();
    }, opts.pingIntervalMs);
    pinger.unref();
    link = {
      hello,
      get closed() {
        return events.closed;
      },
      send,
      onEvent: (listener: (event: LinkEvent) => void) => events.subscribe(listener),
      close: (reason?: string) => closeLink(reason),
    };
    done({ ok: true, link });
  };

  let closedPromise: Promise<void> | undefined;
  const closeLink = (reason = 'closed by referee'): Promise<void> => {
    closedPromise ??= new Promise<void>((resolve) => {
      if (ws.readyState === ws.CLOSED) return resolve();
      ws.once('close', () => resolve());
      closing ??= reason;
      send({ type: 'bye', reason });
      ws.close(1000, closeReason(reason));
      setTimeout(() => ws.terminate(), opts.closeGraceMs ?? 1000).unref();
    });
    return closedPromise;
  };

  ws.on('pong', () => {
    missedPongs = 0;
  });

  ws.on('message', (data, isBinary) => {
    if (!settled) {
      if (isBinary) return fail('binary frame instead of hello', 1003);
      const parsed = parseBotMessage(frameText(data));
      if (!parsed.ok) return fail(`bad hello: ${parsed.reason}`, 1002);
      if (parsed.message.type !== 'hello') return fail(`expected hello, got ${parsed.message.type}`, 1002);
      if (parsed.message.protocol !== PROTOCOL_VERSION) {
        return fail(`unsupported protocol ${parsed.message.protocol}; this referee speaks ${PROTOCOL_VERSION}`, 1002);
      }
      return startLink(parsed.message);
    }
    if (!link) return; // handshake failed; ignore whatever is still in flight
    if (isBinary) return events.emit({ type: 'malformed', reason: 'binary frame; messages are JSON text frames' });
    const parsed = parseBotMessage(frameText(data));
    if (parsed.ok) {
      const m = parsed.message;
      if ((m.type === 'moves' && m.final) || m.type === 'give-up' || m.type === 'unsupported') outstanding.delete(m.id);
    }
    events.emit(parsed.ok ? { type: 'message', message: parsed.message } : { type: 'malformed', reason: parsed.reason });
  });

  ws.on('error', (err: Error & { code?: string }) => {
    // ws reports protocol violations here and then closes the socket itself (1009 for oversize).
    if (err.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') {
      oversize = true;
      const reason = `message larger than ${formatBytes(opts.maxPayload)}`;
      if (link) events.emit({ type: 'malformed', reason });
      else fail(reason, 1009);
      return;
    }
    if (link) events.emit({ type: 'malformed', reason: `bad frame: ${err.message}` });
    else fail(`bad frame: ${err.message}`, 1002);
  });

  ws.on('close', (code, reasonBuf) => {
    clearTimeout(handshakeTimer);
    if (pinger) clearInterval(pinger);
    if (!settled) fail(`connection closed before hello (code ${code})`);
    const said = reasonBuf.length ? `: ${reasonBuf.toString('utf8')}` : '';
    const reason = oversize
      ? `message larger than ${formatBytes(opts.maxPayload)} (code 1009)`
      : (closing ?? `connection closed (code ${code}${said})`);
    events.close(reason);
  });
}
