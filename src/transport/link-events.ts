/**
 * The event plumbing every link shares. Events that happen before anyone subscribes (a bot that crashes
 * right after its hello, before the referee attached a listener) are buffered and replayed to the first
 * subscriber, so no `closed` is ever lost. At most one `closed` is emitted, and it is always the last event;
 * a listener that subscribes after it still hears it (once), so nobody waits on a link that is already gone.
 */
import type { LinkEvent } from '../protocol/link.ts';

/**
 * Events kept for a link nobody listens to yet. A bot has no reason to send anything before its first solve,
 * so this only bounds the memory a hostile bot can pin before the referee subscribes.
 */
const BUFFER_CAP = 1000;

/** Event fan-out with buffering until the first subscriber and a single terminal `closed`. */
export class LinkEvents {
  private readonly listeners = new Set<(event: LinkEvent) => void>();
  private buffer: LinkEvent[] | undefined = [];
  private ended: LinkEvent | undefined;
  /** Whether `ended` has reached the listeners (it may still sit in the buffer's pending replay). */
  private endDispatched = false;

  /** True once `closed` has been emitted. */
  get closed(): boolean {
    return this.ended !== undefined;
  }

  /** Subscribes; the first subscriber gets the buffered events on the next microtask. */
  subscribe(listener: (event: LinkEvent) => void): () => void {
    this.listeners.add(listener);
    const pending = this.buffer;
    if (pending) {
      this.buffer = undefined;
      // Deferred so the caller finishes wiring up before it hears about the past.
      queueMicrotask(() => {
        for (const e of pending) this.dispatch(e);
      });
    } else if (this.ended && this.endDispatched) {
      const last = this.ended;
      queueMicrotask(() => {
        if (this.listeners.has(listener)) listener(last);
      });
    }
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Emits a message or malformed event; dropped after `closed`. */
  emit(event: LinkEvent): void {
    if (this.ended) return;
    if (event.type === 'closed') this.ended = event;
    if (!this.buffer) return this.dispatch(event);
    if (this.buffer.length < BUFFER_CAP || event.type === 'closed') this.buffer.push(event);
  }

  /** Emits the terminal `closed` event (once). */
  close(reason: string): void {
    this.emit({ type: 'closed', reason });
  }

  private dispatch(event: LinkEvent): void {
    if (event.type === 'closed') this.endDispatched = true;
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
