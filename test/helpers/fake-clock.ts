/**
 * A Clock for in-process referee tests: time stands still until the test moves it, and timers fire only
 * then, each at its own due time and in due order. Between timers the clock lets pending promise callbacks
 * run, so the referee's async steps (store writes, link events, the next job) happen where they would in
 * real time. Nothing here waits on real time: a test of a 10-second time limit takes microseconds.
 */
import type { Clock } from '../../src/protocol/link.ts';

interface Timer {
  readonly at: number;
  readonly seq: number;
  readonly fn: () => void;
}

/**
 * Lets every queued promise callback and microtask run, and work that hops over a few turns of the event
 * loop (a result is committed in the turn after the one that validated it), as it would before any timer
 * of the code under test is due.
 */
export async function flush(): Promise<void> {
  for (let turn = 0; turn < 4; turn++) await new Promise((resolve) => setImmediate(resolve));
}

/** A manually driven clock; see the file comment. */
export class FakeClock implements Clock {
  private t = 0;
  private seq = 0;
  private readonly timers = new Map<number, Timer>();

  /** Milliseconds since the clock was made, as far as the test has moved it. */
  now(): number {
    return this.t;
  }

  setTimer(ms: number, fn: () => void): () => void {
    const id = this.seq++;
    // Like setTimeout: a negative or NaN delay means "as soon as possible", never "in the past".
    const delay = Number.isFinite(ms) && ms > 0 ? ms : 0;
    this.timers.set(id, { at: this.t + delay, seq: id, fn });
    return () => void this.timers.delete(id);
  }

  /** How many timers are set and not yet fired or cancelled. */
  get pending(): number {
    return this.timers.size;
  }

  /**
   * Moves time forward by `ms`, firing every timer that falls due on the way (timers set by those timers
   * too, when they fall inside the window), and lets promise callbacks run before and after each one.
   */
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    await flush();
    for (let timer = this.nextTimer(); timer && timer.at <= end; timer = this.nextTimer()) {
      this.fire(timer);
      await flush();
    }
    this.t = end;
    await flush();
  }

  /**
   * Drives time until `promise` settles: flushes, and while it is still pending jumps to the next timer.
   * Rejects when it is pending with no timer left (the code under test waits on something no timer will
   * ever bring: a deadlock, reported instead of hanging the test) or after `maxTimers` timers. Only one
   * driver at a time: do not `advance` while a `run` is under way.
   */
  async run<T>(promise: Promise<T>, maxTimers = 100_000): Promise<T> {
    let settled = false;
    const watched = promise.finally(() => {
      settled = true;
    });
    watched.catch(() => {});
    for (let fired = 0; ; fired++) {
      await flush();
      // Work may hop over more turns of the event loop (results queued behind one another): let it run
      // before concluding that nothing but a timer can move things on.
      for (let turns = 0; turns < 25 && !settled && !this.nextTimer(); turns++) await flush();
      if (settled) return watched;
      const timer = this.nextTimer();
      if (!timer) throw new Error(`FakeClock.run: still pending at t=${this.t} ms with no timer set`);
      if (fired >= maxTimers) throw new Error(`FakeClock.run: still pending after ${maxTimers} timers`);
      this.fire(timer);
    }
  }

  private nextTimer(): Timer | undefined {
    let best: Timer | undefined;
    for (const timer of this.timers.values()) {
      if (!best || timer.at < best.at || (timer.at === best.at && timer.seq < best.seq)) best = timer;
    }
    return best;
  }

  private fire(timer: Timer): void {
    this.timers.delete(timer.seq);
    this.t = Math.max(this.t, timer.at);
    timer.fn();
  }
}
