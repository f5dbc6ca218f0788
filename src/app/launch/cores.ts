/**
 * How a match's cores are dealt. Timing is the tie-breaker between optimal solvers, and two bots solving on
 * one core each get about half of it: on 2 cores with --concurrency 2 a bot's median 3×3 time went from
 * 3.2 ms to 8.2 ms, and beside a CPU hog a rival's wall time was ×1.58. So by default, where the machine has
 * more cores than players (parallel players: --concurrency), every player gets cores no other player uses and
 * the referee and the exact oracle keep the rest; with no more cores than players nothing is pinned (pinning
 * could only make players share a core or squeeze the referee onto one of theirs), and the report says so.
 */
import { availableParallelism, loadavg } from 'node:os';
import type { CoreDeal } from '../../referee/settings/core-deal.ts';
import type { OptimumOracle } from '../../solvers/oracle.ts';
import { affinitySupport, allowedCpus, formatCpuList, pinTask } from '../../transport/process/cpu-affinity.ts';

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

/** What a deal is made from. */
export interface DealInput {
  /** The cores this process may use (its own affinity). */
  readonly cpus: readonly number[];
  /** Parallel players (the match's or the worker's --concurrency). */
  readonly players: number;
  /**
   * The bots that will play, with the threads each declares (1 when it declares none). Absent when they are
   * not known beforehand (a worker plays whatever the queue hands it): each player then gets its full share.
   */
  readonly bots?: Readonly<Record<string, number>>;
}

/**
 * The deal of `cpus` between the referee and `players` parallel players. Only when there are more cores than
 * players: the first core is the referee's (and the oracle's), the others are shared out, each player getting
 * as many as the most threads any of the bots declares (one for bots that declare none), at most an equal
 * share; a bot runs on as many of its player's cores as it declares. Cores left over stay the referee's.
 */
export function dealCores(input: DealInput): CoreDeal {
  const { cpus, players } = input;
  if (players < 1) return { pinned: false, reason: 'no players' };
  if (cpus.length <= players) return { pinned: false, reason: `${plural(cpus.length, 'core')} for ${plural(players, 'player')}` };
  const share = Math.floor((cpus.length - 1) / players);
  const wanted = input.bots ? Math.max(1, ...Object.values(input.bots)) : share;
  const size = Math.min(share, wanted);
  const sets = Array.from({ length: players }, (_, i) => cpus.slice(1 + i * size, 1 + (i + 1) * size));
  const taken = new Set(sets.flat());
  const bots = Object.fromEntries(Object.entries(input.bots ?? {}).map(([bot, threads]) => [bot, Math.max(1, Math.min(threads, size))]));
  return { pinned: true, referee: cpus.filter((c) => !taken.has(c)), players: sets, bots };
}

/**
 * The cores bot `bot` of `player` runs on under a pinned deal: the first of its player's set, as many as the
 * deal gives it (a bot the deal did not know, such as a worker's, as many as the `threads` it declares).
 */
export function botCores(deal: CoreDeal & { readonly pinned: true }, player: number, bot: string, threads = 1): readonly number[] {
  const set = deal.players[player % deal.players.length]!;
  return set.slice(0, Math.max(1, Math.min(deal.bots[bot] ?? threads, set.length)));
}

/**
 * The deal as one line, after "cores: ": "referee 0; ida-star 1; constructive 1" for one player (each bot
 * with its cores), "referee 0,3; player 1: 1; player 2: 2" for more (each bot's count added where bots of
 * one player differ), or "not pinned: 2 cores for 2 players".
 */
export function coreDealText(deal: CoreDeal): string {
  if (!deal.pinned) return `not pinned: ${deal.reason}`;
  const referee = `referee ${formatCpuList(deal.referee)}`;
  const bots = Object.keys(deal.bots);
  if (deal.players.length === 1 && bots.length > 0) return [referee, ...bots.map((b) => `${b} ${formatCpuList(botCores(deal, 0, b))}`)].join('; ');
  const sets = deal.players.map((p, i) => `player ${i + 1}: ${formatCpuList(p)}`);
  const size = deal.players[0]!.length;
  const counts = bots.some((b) => deal.bots[b]! < size) ? ` (of its player's: ${bots.map((b) => `${b} ${plural(deal.bots[b]!, 'core')}`).join(', ')})` : '';
  return [referee, ...sets].join('; ') + counts;
}

/** The cores of this process's players, and the taskset that pins bots to them. */
export interface CorePins {
  readonly deal: CoreDeal & { readonly pinned: true };
  readonly taskset: string;
}

/**
 * This machine's deal for `players` (and `bots`, where known; see DealInput). Pinned only when `affinity`
 * (a match's setting, on by default), the machine can pin and it has more cores than players; else the
 * deal says why not. `notice` is told the deal in one line.
 */
export function corePins(players: number, affinity: boolean, bots?: Readonly<Record<string, number>>, notice?: (text: string) => void): { deal: CoreDeal; pins?: CorePins } {
  const support = affinitySupport();
  const deal: CoreDeal = !affinity
    ? { pinned: false, reason: '--no-affinity' }
    : !support.ok
      ? { pinned: false, reason: support.reason }
      : dealCores({ cpus: support.cpus, players, ...(bots ? { bots } : {}) });
  notice?.(`cores: ${coreDealText(deal)}`);
  return deal.pinned && support.ok ? { deal, pins: { deal, taskset: support.taskset } } : { deal };
}

/**
 * Moves this process (the referee) onto the deal's referee cores, so that it takes nothing from a bot, and
 * the exact oracle's thread there too when `oracle` is given (it then works while bots are timed instead of
 * pausing for them). Returns what puts the referee back where it was.
 */
export function pinReferee(pins: CorePins, oracle?: Pick<OptimumOracle, 'runOn'>): () => void {
  const { referee } = pins.deal;
  const before = allowedCpus();
  const moved = before !== undefined && pinTask(process.pid, referee, pins.taskset);
  oracle?.runOn?.(formatCpuList(referee), (tid) => pinTask(tid, referee, pins.taskset));
  return () => {
    if (moved) pinTask(process.pid, before, pins.taskset);
  };
}

/** "1 core", "2 players". */
function plural(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? '' : 's'}`;
}
