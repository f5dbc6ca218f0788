/**
 * Spots a bot in a restart loop: timing out (or crashing) on scramble after scramble, each time killed and
 * started again. Every scramble keeps its verdict; this only makes sure the person running the match hears
 * it once, plainly, instead of reading it off a column of time-outs.
 */
import type { Verdict } from '../core/verdict.ts';

/** Verdicts after which the bot is killed and restarted for its next scramble. */
const RESTARTING: ReadonlySet<Verdict> = new Set(['timeout', 'crash']);

/** Scrambles in a row that make a loop. */
export const LOOP_LENGTH = 3;

/** One bot's longest run of restarting verdicts, when it reached {@link LOOP_LENGTH}. */
export interface RestartLoop {
  readonly bot: string;
  /** Scrambles in the longest run. */
  readonly scrambles: number;
  /** 0-based index of the first and last scramble of that run, in the order they were played. */
  readonly first: number;
  readonly last: number;
  /** What ended them: 'timeout', 'crash', or both. */
  readonly verdicts: readonly Verdict[];
}

/** Per-bot runs of restarting verdicts, fed one result at a time in the order they were recorded. */
export class RestartLoops {
  private readonly current = new Map<string, { scrambles: number; first: number; last: number; verdicts: Set<Verdict> }>();
  private readonly longest = new Map<string, RestartLoop>();

  record(bot: string, scrambleIndex: number, verdict: Verdict): void {
    if (!RESTARTING.has(verdict)) {
      this.current.delete(bot);
      return;
    }
    let run = this.current.get(bot);
    if (!run) this.current.set(bot, (run = { scrambles: 0, first: scrambleIndex, last: scrambleIndex, verdicts: new Set() }));
    run.scrambles++;
    run.last = scrambleIndex;
    run.verdicts.add(verdict);
    const best = this.longest.get(bot);
    if (run.scrambles >= LOOP_LENGTH && (!best || run.scrambles > best.scrambles)) {
      this.longest.set(bot, { bot, scrambles: run.scrambles, first: run.first, last: run.last, verdicts: [...run.verdicts].sort() });
    }
  }

  /** Each bot that looped, once, with its longest run. */
  report(): RestartLoop[] {
    return [...this.longest.values()];
  }
}
