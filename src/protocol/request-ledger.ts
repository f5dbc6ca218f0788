/**
 * Which request ids a bot may answer on one connection. The ledger sees every `solve` and `cancel` the
 * referee sends and every answer the bot sends, so it can tell the three cases apart: an answer to an open
 * request is delivered; a late answer to a request the referee cancelled is dropped (the bot could not know
 * in time); anything else (an id never sent, a request already answered, a second hello) is a protocol
 * violation. Because the referee's ids are unpredictable, nothing a bot sends before it has seen a `solve`
 * can ever be applied to one.
 */
import type { BotMessage, RefereeMessage } from './messages.ts';

/** What to do with one message a bot sent after the handshake. */
export type Admission =
  | { readonly action: 'deliver' }
  | { readonly action: 'drop' }
  | { readonly action: 'violation'; readonly reason: string };

/**
 * Cancelled ids remembered per connection. A bot may still be streaming the chunks of a cancelled answer
 * when the next request starts; ids further back than this are long dead, and remembering every one would
 * grow with the length of a match.
 */
const CANCELLED_KEPT = 1024;

const DELIVER: Admission = { action: 'deliver' };
const DROP: Admission = { action: 'drop' };

/** Tracks open and cancelled request ids of one connection. */
export class RequestLedger {
  private readonly open = new Set<string>();
  private readonly cancelled = new Set<string>();

  /** Requests sent and neither answered nor cancelled. */
  get outstanding(): number {
    return this.open.size;
  }

  /** Call for every message the referee sends, before it is written. */
  noteSent(message: RefereeMessage): void {
    // A prepare (the untimed warm-up) is a request too: its `ready` answers it.
    if (message.type === 'solve' || message.type === 'prepare') this.open.add(message.id);
    else if (message.type === 'cancel') {
      this.open.delete(message.id);
      this.cancelled.add(message.id);
      if (this.cancelled.size > CANCELLED_KEPT) this.cancelled.delete(this.cancelled.values().next().value!);
    }
  }

  /** Classifies a validated bot message; an answer that ends its request closes that request. */
  admit(message: BotMessage): Admission {
    if (message.type === 'hello') return { action: 'violation', reason: 'unexpected hello after the handshake' };
    const id = message.id;
    if (this.open.has(id)) {
      if (message.type !== 'moves' || message.final) this.open.delete(id);
      return DELIVER;
    }
    if (this.cancelled.has(id)) return DROP;
    return {
      action: 'violation',
      reason: `${message.type} for request id ${JSON.stringify(id.slice(0, 40))}, which is not open (never sent, or already answered)`,
    };
  }
}
