/**
 * Waits `ms`, or less when `signal` aborts (at once when it already has). Never rejects: a caller that
 * polls checks the signal itself, and the one timer is cleared either way so nothing keeps the process up.
 */
export function sleepUnlessAborted(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
