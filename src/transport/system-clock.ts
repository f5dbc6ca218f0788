import type { Clock } from '../protocol/link.ts';

/** The real clock: monotonic performance.now() and timers. Tests hand the referee a fake one instead. */
export const systemClock: Clock = {
  now: () => performance.now(),
  setTimer(ms: number, fn: () => void): () => void {
    const timer = setTimeout(fn, ms);
    return () => clearTimeout(timer);
  },
};
