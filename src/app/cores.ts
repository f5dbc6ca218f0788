/**
 * Whether a match's parallelism leaves its bots a core each. Timing is the tie-breaker between optimal
 * solvers, and two bots solving on one core each get about half of it: on 2 cores with --concurrency 2 a
 * bot's median 3×3 time went from 3.2 ms to 8.2 ms. The referee needs a core of its own too.
 */
import { availableParallelism, loadavg } from 'node:os';

/** The warning for `concurrency` parallel jobs on this machine now, or undefined when they fit. */
export function concurrencyWarning(concurrency: number, cores = availableParallelism(), load = loadavg()[0]): string | undefined {
  // Cores busy with other work (the 1-minute load average, rounded), then one for the referee.
  const free = Math.max(0, cores - Math.round(load));
  const fits = Math.max(1, free - 1);
  if (concurrency <= fits) return undefined;
  return (
    `warning: --concurrency ${concurrency} with ${free} of ${cores} cores free (load ${load.toFixed(1)}): ` +
    `bots will share cores and their times will be distorted; use --concurrency ${fits} for fair timing`
  );
}
