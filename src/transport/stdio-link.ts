/**
 * The stdio transport: newline-delimited JSON, one message per line, bot → referee on the bot's stdout and
 * referee → bot on its stdin. Same handshake, bounds and rules as WebSocket (link-core.ts). A line longer
 * than maxPayload is the stdio twin of WebSocket's 1009, and a line that is not UTF-8 the twin of 1007: a
 * protocol violation that ends the link. There is no ping: the process's exit is the liveness signal.
 */
import { isUtf8 } from 'node:buffer';
import type { Readable, Writable } from 'node:stream';
import { formatBytes } from '../protocol/bounds.ts';
import type { HandshakeOutcome } from './handshake.ts';
import { checkHello, welcomeMessage } from './handshake.ts';
import { describeError, LinkCore } from './link-core.ts';

/** Tunables of a stdio link. */
export interface StdioLinkOptions {
  readonly session: string;
  readonly maxPayload: number;
  readonly handshakeTimeoutMs: number;
  /** How long close() waits for the bot to close its stdout after `bye`. */
  readonly closeGraceMs?: number;
}

/** What the line reader hands on: a complete line, or why the stream cannot be read further. */
type LineEvent = { readonly line: Buffer } | { readonly fault: string };

/**
 * Splits a byte stream into lines without ever holding more than `max` bytes of an unfinished line.
 * Calls `onLine` per complete, non-empty line; after a fault (a line over the cap) it reads nothing more.
 */
function lineReader(input: Readable, max: number, on: (e: LineEvent) => void): void {
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
      let line = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
      if (line.length > 0 && line[line.length - 1] === 13) line = line.subarray(0, line.length - 1);
      parts = [];
      size = 0;
      start = nl + 1;
      if (line.some((b) => b !== 32 && b !== 9)) on({ line });
      if (dead) return;
    }
    const rest = chunk.subarray(start);
    const nl = rest.indexOf(10);
    if (size + (nl === -1 ? rest.length : nl) > max) {
      dead = true;
      parts = [];
      on({ fault: `message larger than ${formatBytes(max)}` });
      return;
    }
    if (rest.length) {
      parts.push(rest);
      size += rest.length;
    }
  });
  input.on('close', () => {
    dead = true;
  });
}

/**
 * Runs the handshake over a bot's stdout (`output`) and stdin (`input`) and resolves with the live link,
 * or the reason it failed. The caller owns the process and kills it on failure.
 */
export function openStdioLink(io: { readonly input: Writable; readonly output: Readable }, opts: StdioLinkOptions): Promise<HandshakeOutcome> {
  return new Promise((resolve) => {
    let core: LinkCore | undefined;
    let settled = false;

    const finish = (outcome: HandshakeOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const timer = setTimeout(() => finish({ ok: false, code: 'handshake', reason: `no hello within ${opts.handshakeTimeoutMs} ms` }), opts.handshakeTimeoutMs);

    io.input.on('error', () => undefined); // EPIPE after the bot died: the exit is reported elsewhere
    const writable = (): boolean => !io.input.writableEnded && !io.input.destroyed;

    const onLine = (e: LineEvent): void => {
      if (core) {
        if ('fault' in e) return core.violation(e.fault);
        if (!isUtf8(e.line)) return core.violation('line is not valid UTF-8');
        return core.receive(e.line.toString('utf8'));
      }
      if (settled) return;
      if ('fault' in e) return finish({ ok: false, code: 'protocol', reason: `bad hello: ${e.fault}` });
      if (!isUtf8(e.line)) return finish({ ok: false, code: 'protocol', reason: 'bad hello: line is not valid UTF-8' });
      const hello = checkHello(e.line.toString('utf8'));
      if (!hello.ok) return finish({ ok: false, code: 'protocol', reason: hello.reason });
      core = new LinkCore(
        hello.value,
        {
          write: (text) => {
            if (writable()) io.input.write(text + '\n');
          },
          // The bot's stdin closing is its cue to exit; the process link kills what remains.
          end: () => {
            if (writable()) io.input.end();
          },
          kill: () => io.input.destroy(),
        },
        opts.closeGraceMs ?? 1000,
      );
      core.send(welcomeMessage(opts.session, opts.maxPayload, hello.value.protocol));
      finish({ ok: true, link: core });
    };

    lineReader(io.output, opts.maxPayload, (e) => {
      if (core) return core.guard(() => onLine(e));
      try {
        onLine(e);
      } catch (err) {
        finish({ ok: false, code: 'handshake', reason: `the referee failed to handle the handshake (${describeError(err)})` });
      }
    });
    const ended = (): void => {
      if (!settled) finish({ ok: false, code: 'handshake', reason: 'stdout closed before hello' });
      core?.ended('bot closed its stdout');
    };
    io.output.once('end', ended);
    io.output.once('close', ended);
    io.output.on('error', () => undefined);
  });
}
