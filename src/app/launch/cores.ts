/**
 * Whether a match's parallelism leaves its bots a core each. Timing is the tie-breaker between optimal
 * solvers, and two bots solving on one core each get about half of it: on 2 cores with --concurrency 2 a
 * bot's median 3×3 time went from 3.2 ms to 8.2 ms. The referee needs a core of its own too.
 */
import { availableParallelism, loadavg } from 'node:os';
import { affinitySupport, formatCpuList } from '../../transport/process/cpu-affinity.ts';

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

/**
 * The cores of each parallel player under --affinity: with no more players than cores, the cores are dealt
 * out in turn (player i gets cores i, i + players, …), so every player has cores no other player uses and
 * one player alone keeps them all; with more players than cores, player i gets core i mod cores, and
 * players share (see {@link affinityNotice}). `reserve` cores at the end are kept out of the deal while
 * enough remain for one per player: the referee's (and the exact oracle's, see {@link CorePins.spare}).
 */
export function affinityPlan(players: number, cpus: readonly number[], reserve = 0): number[][] {
  const dealt = players <= cpus.length - reserve ? cpus.slice(0, cpus.length - reserve) : cpus;
  const n = dealt.length;
  if (n === 0 || players < 1) return [];
  if (players > n) return Array.from({ length: players }, (_, i) => [dealt[i % n]]);
  return Array.from({ length: players }, (_, i) => dealt.filter((_, j) => j % players === i));
}

/** The cores no player of `plan` uses. */
export function spareCores(plan: readonly (readonly number[])[], cpus: readonly number[]): number[] {
  const used = new Set(plan.flat());
  return cpus.filter((c) => !used.has(c));
}

/** What the person running the match is told about the plan: which player has which cores, and any sharing. */
export function affinityNotice(plan: readonly (readonly number[])[], cpus: readonly number[]): string {
  const sets = plan.map((p, i) => `player ${i + 1}: ${formatCpuList(p)}`).join(', ');
  if (plan.length <= cpus.length) {
    const spare = spareCores(plan, cpus);
    const rest = spare.length ? `; the referee and the exact oracle on ${formatCpuList(spare)}` : '';
    return `bots pinned to their player's cores (${sets}${rest})`;
  }
  return `warning: --affinity with --concurrency ${plan.length} above the ${cpus.length} cores this process may use: players share cores and their times will be distorted (${sets})`;
}

/** The cores of each player of this process, for bots of matches that ask for pinning. */
export interface CorePins {
  readonly plan: readonly (readonly number[])[];
  readonly taskset: string;
  /**
   * Cores no player's bots run on (a local match keeps one back when it has more cores than players):
   * work that can wait, the exact oracle, runs there while bots are timed instead of pausing for them.
   */
  readonly spare: readonly number[];
}

/**
 * The cores of each of `players` when this machine can pin (one notice says which player has which cores);
 * else one warning line and undefined: the bots run unpinned. A local match and `arena worker` both ask
 * here; a local match keeps one core for its referee when it has more than players (`reserveReferee`).
 */
export function corePins(players: number, notice?: (text: string) => void, reserveReferee = false): CorePins | undefined {
  const support = affinitySupport();
  if (!support.ok) {
    notice?.(`warning: --affinity ignored, bots run unpinned: ${support.reason}`);
    return undefined;
  }
  const plan = affinityPlan(players, support.cpus, reserveReferee ? 1 : 0);
  notice?.(affinityNotice(plan, support.cpus));
  return { plan, taskset: support.taskset, spare: spareCores(plan, support.cpus) };
}
