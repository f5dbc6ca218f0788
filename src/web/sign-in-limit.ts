/**
 * Failed sign-ins counted per client address over a sliding window: after `max` failures within `windowMs`
 * the address is refused (429) until the oldest of them leaves the window. Kept in the server's memory: a
 * restart forgets it, which costs a guesser nothing worth having against 256-bit tokens, and the limit is
 * there to stop floods and noise, not to make guessing feasible-looking.
 */

/** The default: 5 failures a minute. */
export const SIGN_IN_LIMIT = { max: 5, windowMs: 60_000 } as const;

/** At most this many addresses are tracked; beyond it the longest quiet ones are forgotten. */
const MAX_ADDRESSES = 10_000;

/** Failed sign-ins per address. */
export class SignInLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly max: number = SIGN_IN_LIMIT.max,
    private readonly windowMs: number = SIGN_IN_LIMIT.windowMs,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until `address` may try again, or undefined when it may now. */
  retryAfter(address: string): number | undefined {
    const recent = this.recent(address);
    if (recent.length < this.max) return undefined;
    return Math.max(1, Math.ceil((recent[0]! + this.windowMs - this.now()) / 1000));
  }

  /** Counts one failure of `address`. */
  fail(address: string): void {
    const recent = this.recent(address);
    recent.push(this.now());
    // Re-inserting keeps the map in order of last failure, so the first key is the quietest address.
    this.failures.delete(address);
    this.failures.set(address, recent);
    if (this.failures.size > MAX_ADDRESSES) this.failures.delete(this.failures.keys().next().value!);
  }

  private recent(address: string): number[] {
    const since = this.now() - this.windowMs;
    const kept = (this.failures.get(address) ?? []).filter((t) => t > since);
    if (kept.length === 0) this.failures.delete(address);
    return kept;
  }
}
