/**
 * Ctrl-C (or SIGTERM) for a long-running command: the first one says `notice` and aborts the signal handed
 * to `run`, which then stops cleanly; a second one exits at once with 130.
 */
export async function withInterrupt<T>(notice: () => void, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const stop = new AbortController();
  let interrupts = 0;
  const onSignal = () => {
    if (++interrupts > 1) process.exit(130);
    notice();
    stop.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    return await run(stop.signal);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
