/**
 * The event plumbing every link shares. Events that happen before anyone subscribes (a bot that crashes
 * right after its hello, before the referee attached a listener) are buffered and replayed to the first
 * subscriber, so no `closed` is ever lost. At most one `closed` is emitted, and it is always the last event.
 *
 * How a link ended is never lost to a late listener either: a `malformed` event (a protocol violation, after
 * which the link always ends) and the `closed` event are replayed to anyone who subscribes after they were
 * delivered. Several parties listen to one link (the launcher's bookkeeping, then each request in turn), and
 * the request that comes next must learn that the link died of a violation, not only that it died.
 */
import type { LinkEvent } from '../protocol/link.ts';

/**
 * Events kept for a link nobody listens to yet. A bot has no reason to send anything before its first solve,
 * so this only bounds the memory a hostile bot can pin before the referee subscribes.
 */
const BUFFER_CAP = 1000;

/** Event fan-out with buffering until the first subscriber and a replayed ending. */
export class LinkEvents {
  private readonly listeners = new Set<(event: LinkEvent) => void>();
  private buffer: LinkEvent[] | undefined = [];
  private ended = false;
  /** The first `malformed` and the `closed` event, once delivered: what late subscribers are told. */
  private readonly ending: LinkEvent[] = [];

  /** True once `closed` has been emitted. */
  get closed(): boolean {
    return this.ended;
  }

  /** Subscribes; the first subscriber gets the buffered events, later ones the ending, on the next microtask. */
  subscribe(listener: (event: LinkEvent) => void): () => void {
    this.listeners.add(listener);
    const pending = this.buffer;
    if (pending) {
      this.buffer = undefined;
      // Deferred so the caller finishes wiring up before it hears about the past.
      queueMicrotask(() => {
        for (const e of pending) this.dispatch(e);
      });
    } else if (this.ending.length > 0) {
      const past = [...this.ending];
      queueMicrotask(() => {
        for (const e of past) if (this.listeners.has(listener)) listener(e);
      });
    }
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Emits a message or malformed event; dropped after `closed`. */
  emit(event: LinkEvent): void {
    if (this.ended) return;
    if (event.type === 'closed') this.ended = true;
    if (!this.buffer) return this.dispatch(event);
    if (this.buffer.length < BUFFER_CAP || event.type !== 'message') this.buffer.push(event);
  }

  /** Emits the terminal `closed` event (once). */
  close(reason: string): void {
    this.emit({ type: 'closed', reason });
  }

  private dispatch(event: LinkEvent): void {
    if (event.type === 'closed' || (event.type === 'malformed' && this.ending.length === 0)) this.ending.push(event);
    let failure: unknown;
    for (const l of [...this.listeners]) {
      try {
        l(event);
      } catch (e) {
        // A throwing listener is a programmer error: let the others run, then surface it.
        failure ??= e;
      }
    }
    if (failure !== undefined) throw failure;
  }
}
