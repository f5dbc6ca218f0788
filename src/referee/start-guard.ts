/**
 * The rule for bots that cannot start: after {@link START_ATTEMPTS} failed starts in a row, a bot is not
 * started again for the rest of the match; each of its remaining scrambles is charged `crash` with the
 * reason at once. Without it a bot that never starts costs its start timeout on every scramble. A remote
 * bot gets {@link DIAL_IN_ATTEMPTS}: a second wait cannot start anything, it only waits out the whole start
 * timeout again for a machine that did not dial in the first time. One guard
 * is shared by the workers of a match (a bot that cannot start for one worker cannot start for another);
 * it is the only state they share, and it only ever moves from "may start" to "blocked".
 */

/** Failed starts in a row after which a bot is given up on. */
export const START_ATTEMPTS = 2;

/** Failed dial-ins after which a remote bot is given up on. */
export const DIAL_IN_ATTEMPTS = 1;

/** Why a bot is blocked, and what it cost. */
export interface BlockedBot {
  readonly bot: string;
  /** The reason of the last failed start. */
  readonly reason: string;
  /** Scrambles charged `crash` without starting the bot. */
  readonly charged: number;
  /** Failed starts in a row that blocked it: {@link START_ATTEMPTS}, or {@link DIAL_IN_ATTEMPTS} for a remote bot. */
  readonly attempts: number;
}

/** Start bookkeeping of one match. */
export class StartGuard {
  private readonly failures = new Map<string, { inARow: number; reason: string }>();
  private readonly blockedBots = new Map<string, { reason: string; charged: number; attempts: number }>();

  /** The reason `bot` is no longer started, or undefined while it may be. */
  blocked(bot: string): string | undefined {
    return this.blockedBots.get(bot)?.reason;
  }

  /** What a scramble of a blocked bot is charged with: why it is not started, in one line. */
  chargeReason(bot: string): string | undefined {
    const b = this.blockedBots.get(bot);
    if (!b) return undefined;
    return b.attempts === DIAL_IN_ATTEMPTS
      ? `not waited for again: it did not dial in when first asked (${b.reason})`
      : `not started again: it failed to start ${b.attempts} times in a row (${b.reason})`;
  }

  /**
   * Records a start of `bot`: a success clears its count, a failure adds to it; `attempts` failures in a row
   * block it ({@link DIAL_IN_ATTEMPTS} for a remote bot).
   */
  started(bot: string, failure?: string, attempts = START_ATTEMPTS): void {
    if (failure === undefined) {
      this.failures.delete(bot);
      return;
    }
    const inARow = (this.failures.get(bot)?.inARow ?? 0) + 1;
    this.failures.set(bot, { inARow, reason: failure });
    if (inARow >= attempts && !this.blockedBots.has(bot)) this.blockedBots.set(bot, { reason: failure, charged: 0, attempts });
  }

  /** Counts one scramble charged without a start. */
  charged(bot: string): void {
    const b = this.blockedBots.get(bot);
    if (b) b.charged++;
  }

  /** Every blocked bot, for the match's report. */
  report(): BlockedBot[] {
    return [...this.blockedBots].map(([bot, b]) => ({ bot, reason: b.reason, charged: b.charged, attempts: b.attempts }));
  }
}
