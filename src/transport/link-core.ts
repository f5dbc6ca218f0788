/**
 * What every link kind does once its handshake is done; WebSocket and stdio differ only in how bytes move.
 * Outgoing messages pass the request ledger; incoming text is parsed within the message bounds and checked
 * against the ledger; a protocol violation is reported once as `malformed` and ends the link at once, so a
 * link that misbehaved is never used again (the referee starts a fresh bot for the next request).
 *
 * Everything that handles bot input runs inside a guard: if it throws anyway (a referee bug that some input
 * exposes), the link ends with a `malformed` event that names the error, and the referee process carries on.
 */
import type { BotLink, LinkEvent } from '../protocol/link.ts';
import type { HelloMessage, RefereeMessage } from '../protocol/messages.ts';
import { RequestLedger } from '../protocol/request-ledger.ts';
import { parseBotMessage } from '../protocol/schema.ts';
import { LinkEvents } from './link-events.ts';

/** How a link moves bytes; implemented by the WebSocket and stdio links. */
export interface LinkTransport {
  /** Writes one serialized message; a no-op once the connection is going away. */
  write(text: string): void;
  /** Starts an orderly end of the connection (`violation`: the bot broke the protocol). */
  end(reason: string, violation: boolean): void;
  /** Cuts the connection at once; used when the bot ignores the orderly end. */
  kill(): void;
  /** Writes what this turn's writes gathered now (see BotLink.flush); absent where writes are not gathered. */
  flush?(): void;
}

/** Says what an exception was, in one short line. */
export function describeError(e: unknown): string {
  return (e instanceof Error ? `${e.name}: ${e.message}` : String(e)).slice(0, 200);
}

/** The shared body of a handshaken link. */
export class LinkCore implements BotLink {
  private readonly events = new LinkEvents();
  private readonly ledger = new RequestLedger();
  private closing: string | undefined;
  private transportDone = false;
  private closedPromise: Promise<void> | undefined;
  private readonly endWaiters: Array<() => void> = [];
  private graceTimer: NodeJS.Timeout | undefined;

  constructor(
    readonly hello: HelloMessage,
    private readonly transport: LinkTransport,
    private readonly closeGraceMs: number,
  ) {}

  get closed(): boolean {
    return this.events.closed;
  }

  /** Requests sent and not yet answered or cancelled (the WebSocket link pauses its pong check meanwhile). */
  get outstanding(): number {
    return this.ledger.outstanding;
  }

  send(message: RefereeMessage): void {
    if (this.events.closed || this.closing !== undefined) return;
    this.ledger.noteSent(message);
    this.transport.write(JSON.stringify(message));
  }

  flush(): void {
    this.transport.flush?.();
  }

  onEvent(listener: (event: LinkEvent) => void): () => void {
    return this.events.subscribe(listener);
  }

  /** Handles one text message from the bot. Never throws. */
  receive(text: string): void {
    if (this.events.closed) return;
    this.guard(() => {
      const parsed = parseBotMessage(text);
      if (!parsed.ok) return this.violation(parsed.reason);
      const admission = this.ledger.admit(parsed.message);
      if (admission.action === 'violation') return this.violation(admission.reason);
      if (admission.action === 'deliver') this.events.emit({ type: 'message', message: parsed.message });
    });
  }

  /** A protocol violation: one `malformed` event, then `closed` at once, and the connection is ended. */
  violation(reason: string): void {
    if (this.events.closed) return;
    const text = `protocol violation: ${reason}`;
    this.shutdown(text, true);
    try {
      this.events.emit({ type: 'malformed', reason });
    } finally {
      this.events.close(text);
    }
  }

  /** Runs `fn`; anything it throws ends the link as a violation instead of escaping into the event loop. */
  guard(fn: () => void): void {
    try {
      fn();
    } catch (e) {
      try {
        this.violation(`the referee failed to handle the message (${describeError(e)})`);
      } catch {
        // A listener threw again while hearing about it; the link is closed either way.
      }
    }
  }

  /** The transport has ended (socket closed, stdout ended); `reason` says how. */
  ended(reason: string): void {
    this.transportDone = true;
    clearTimeout(this.graceTimer);
    for (const w of this.endWaiters.splice(0)) w();
    this.guard(() => this.events.close(this.closing ?? reason));
  }

  close(reason = 'closed by referee'): Promise<void> {
    this.closedPromise ??= new Promise<void>((resolve) => {
      if (this.transportDone) return resolve();
      this.endWaiters.push(resolve);
      this.shutdown(reason, false);
    });
    return this.closedPromise;
  }

  /** Says bye (once), starts the transport's orderly end, and cuts it after the grace period. */
  private shutdown(reason: string, violation: boolean): void {
    if (this.closing !== undefined) return;
    this.transport.write(JSON.stringify({ type: 'bye', reason }));
    this.closing = reason;
    this.transport.end(reason, violation);
    this.graceTimer = setTimeout(() => {
      this.transport.kill();
      this.ended(reason);
    }, this.closeGraceMs);
    this.graceTimer.unref();
  }
}
