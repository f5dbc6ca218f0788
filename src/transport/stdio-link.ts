/**
 * The stdio transport: newline-delimited JSON, one message per line, bot → referee on the bot's stdout and
 * referee → bot on its stdin. Same handshake and the same validation as WebSocket. A line longer than
 * maxPayload is the stdio twin of WebSocket's 1009: `malformed`, then the link ends (the stream cannot be
 * resynchronised safely). There is no ping: the process's exit is the liveness signal.
 */
import type { Readable, Writable } from 'node:stream';
import type { BotLink, LinkEvent } from '../protocol/link.ts';
import type { HelloMessage, RefereeMessage } from '../protocol/messages.ts';
import { PROTOCOL_VERSION } from '../protocol/messages.ts';
import { parseBotMessage } from '../protocol/schema.ts';
import { LinkEvents } from './link-events.ts';
import type { HandshakeOutcome } from './ws-link.ts';
import { formatBytes } from './ws-link.ts';

/** Tunables of a stdio link. */
export interface StdioLinkOptions {
  readonly session: string;
  readonly maxPayload: number;
  readonly handshakeTimeoutMs: number;
  /** How long close() waits for the bot to close its stdout after `bye`. */
  readonly closeGraceMs?: number;
}

/**
 * Splits a byte stream into lines without ever holding more than `max` bytes of an unfinished line.
 * Calls `onLine` per complete line and `onOverflow` once if a line exceeds the cap.
 */
function lineReader(input: Readable, max: number, onLine: (line: string) => void, onOverflow: () => void): void {
  let parts: Buffer[] = [];
  let size = 0;
  let dead = false;
  input.on('data', (chunk: Buffer) => {
    if (dead) return;
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl !== -1; nl = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, nl);
      if (size + piece.length > max) break;
      parts.push(piece);
      const line = Buffer.concat(parts).toString('utf8').replace(/\r$/, '');
      parts = [];
      size = 0;
      start = nl + 1;
      if (line.trim() !== '') onLine(line);
      if (dead) return;
    }
    const rest = chunk.subarray(start);
    const nl = rest.indexOf(10);
    if (size + (nl === -1 ? rest.length : nl) > max) {
      dead = true;
      parts = [];
      onOverflow();
      return;
    }
    if (rest.length) {
      parts.push(rest);
      size += rest.length;
    }
  });
}

/**
 * Runs the handshake over a bot's stdout (`output`) and stdin (`input`) and resolves with the live link,
 * or the reason it failed. The caller owns the process and kills it on failure.
 */
export function openStdioLink(
  io: { readonly input: Writable; readonly output: Readable },
  opts: StdioLinkOptions,
): Promise<HandshakeOutcome> {
  return new Promise((resolve) => {
    const events = new LinkEvents();
    let hello: HelloMessage | undefined;
    let settled = false;
    let closing: string | undefined;
    const tooBig = `message larger than ${formatBytes(opts.maxPayload)}`;

    const finish = (outcome: HandshakeOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const timer = setTimeout(
      () => finish({ ok: false, reason: `no hello within ${opts.handshakeTimeoutMs} ms` }),
      opts.handshakeTimeoutMs,
    );

    io.input.on('error', () => undefined); // EPIPE after the bot died: the exit is reported elsewhere
    const send = (message: RefereeMessage): void => {
      if (events.closed || io.input.writableEnded || io.input.destroyed) return;
      io.input.write(JSON.stringify(message) + '\n');
    };

    const link: BotLink = {
      get hello() {
        return hello!;
      },
      get closed() {
        return events.closed;
      },
      send,
      onEvent: (listener: (event: LinkEvent) => void) => events.subscribe(listener),
      close: (reason = 'closed by referee') => {
        if (events.closed) return Promise.resolve();
        closing ??= reason;
        send({ type: 'bye', reason });
        io.input.end();
        return new Promise<void>((done) => {
          const t = setTimeout(() => {
            events.close(closing!);
            done();
          }, opts.closeGraceMs ?? 1000);
          t.unref();
          link.onEvent((e) => {
            if (e.type === 'closed') {
              clearTimeout(t);
              done();
            }
          });
        });
      },
    };

    lineReader(
      io.output,
      opts.maxPayload,
      (line) => {
        const parsed = parseBotMessage(line);
        if (settled && hello) {
          events.emit(parsed.ok ? { type: 'message', message: parsed.message } : { type: 'malformed', reason: parsed.reason });
          return;
        }
        if (settled) return;
        if (!parsed.ok) return finish({ ok: false, reason: `bad hello: ${parsed.reason}` });
        if (parsed.message.type !== 'hello') return finish({ ok: false, reason: `expected hello, got ${parsed.message.type}` });
        if (parsed.message.protocol !== PROTOCOL_VERSION) {
          return finish({ ok: false, reason: `unsupported protocol ${parsed.message.protocol}; this referee speaks ${PROTOCOL_VERSION}` });
        }
        hello = parsed.message;
        send({ type: 'welcome', protocol: PROTOCOL_VERSION, session: opts.session, limits: { maxPayload: opts.maxPayload } });
        finish({ ok: true, link });
      },
      () => {
        if (!hello) return finish({ ok: false, reason: tooBig });
        events.emit({ type: 'malformed', reason: tooBig });
        closing ??= tooBig;
        events.close(tooBig);
      },
    );
    const ended = (): void => {
      if (!settled) finish({ ok: false, reason: 'stdout closed before hello' });
      events.close(closing ?? 'bot closed its stdout');
    };
    io.output.once('end', ended);
    io.output.once('close', ended);
    io.output.on('error', () => undefined);
  });
}
