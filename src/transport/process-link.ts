/**
 * Ties a link (WebSocket or stdio) to the process behind it. The connection and the process end in either
 * order; a message the bot sent just before dying can arrive after its exit is noticed, so the single
 * `closed` event waits (briefly) until both have ended and then names the exit code or signal.
 */
import type { BotLink, LinkEvent } from '../protocol/link.ts';
import type { RefereeMessage } from '../protocol/messages.ts';
import type { BotProcess } from './process/bot-process.ts';
import { LinkEvents } from './link-events.ts';

/** How long one side waits for the other before `closed` is emitted anyway. */
const SETTLE_MS = 1000;

/** Options of {@link processLink}. */
export interface ProcessLinkOptions {
  /** How long one side waits for the other before `closed`, ms (default SETTLE_MS). */
  readonly settleMs?: number;
  /** Whether a crash's reason carries the last lines of stderr (default true; see ProcessLauncherOptions). */
  readonly stderrInReasons?: boolean;
}

/** Wraps `inner` so that closing it kills `proc`'s group and process death closes it. */
export function processLink(inner: BotLink, proc: BotProcess, o: ProcessLinkOptions = {}): BotLink {
  const settleMs = o.settleMs ?? SETTLE_MS;
  const events = new LinkEvents();
  let innerReason: string | undefined;
  let innerFirst = false;
  let byReferee: string | undefined;
  let finished = false;
  let settleTimer: NodeJS.Timeout | undefined;

  const finish = (): void => {
    if (finished) return;
    finished = true;
    clearTimeout(settleTimer);
    const exit = proc.exit;
    proc.kill();
    let reason: string;
    if (byReferee !== undefined) reason = byReferee;
    else {
      // The side that ended first is the cause (a missed pong, an oversized message, a crash); name both.
      const parts = innerFirst && innerReason !== undefined ? [innerReason] : [];
      if (exit) {
        parts.push(`bot process ${exit.description}`);
        const tail = exit.clean || o.stderrInReasons === false ? '' : proc.stderrTail();
        if (tail) parts.push(`stderr:\n${tail}`);
      } else parts.push('bot process killed');
      reason = parts.join('; ');
    }
    if (!inner.closed) void inner.close(reason);
    // Out of memory or out of CPU time is what happened to the bot, whichever side noticed first.
    const verdict = byReferee === undefined && exit && exit.verdict !== 'crash' ? exit.verdict : undefined;
    events.emit({ type: 'closed', reason, ...(verdict ? { verdict } : {}) });
  };
  const startSettling = (): void => {
    // The wait ends after the next poll of the event loop, not in the timer: a referee that was not scheduled
    // for longer than the wait wakes with the timer due and the bot's last answer still unread in its pipe or
    // socket, and timers run before the poll that would read it. setImmediate runs after that poll.
    settleTimer ??= setTimeout(() => setImmediate(finish), settleMs);
  };

  inner.onEvent((event: LinkEvent) => {
    if (event.type !== 'closed') return events.emit(event);
    innerReason = event.reason;
    innerFirst = proc.exit === undefined;
    if (proc.exit) finish();
    else startSettling();
  });
  void proc.exited.then(() => {
    if (innerReason !== undefined) finish();
    else startSettling();
  });

  let closing: Promise<void> | undefined;
  return {
    hello: inner.hello,
    // Unusable as soon as either side is gone: the inner link ends at once on a protocol violation, while
    // `closed` waits for the process to report its exit.
    get closed() {
      return events.closed || inner.closed;
    },
    send: (message: RefereeMessage) => {
      if (!events.closed) inner.send(message);
    },
    flush: () => inner.flush?.(),
    onEvent: (listener) => events.subscribe(listener),
    cpuMs: () => (events.closed ? undefined : proc.cpuMs()),
    takeStderr: async () => {
      if (events.closed || inner.closed) await proc.stderrClosed;
      return proc.takeStderr();
    },
    close(reason = 'closed by referee') {
      closing ??= (async () => {
        if (finished) return;
        byReferee = reason;
        // bye first, so a well-behaved bot exits with 0 on its own; then the group dies regardless.
        await inner.close(reason);
        await Promise.race([proc.exited, new Promise((r) => setTimeout(r, 300).unref())]);
        finish();
      })();
      return closing;
    },
  };
}
