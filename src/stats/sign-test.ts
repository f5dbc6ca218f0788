/**
 * The exact sign test and the likelihood of superiority of a W-L record: Binomial(n, 1/2) tails. Pure math.
 */
import { binomialTails } from './binomial.ts';

/**
 * Two-sided exact sign test of "each decisive game is a fair coin" (draws carry no information about which
 * bot is stronger): the probability of a split at least as lopsided as `wins` vs `losses`, i.e. twice the
 * smaller tail, capped at 1. This is the conditional (UMPU) test of P(win) = P(loss) in the trinomial model,
 * McNemar's exact test. 1 when there were no decisive games.
 */
export function signTestP(wins: number, losses: number): number {
  if (!Number.isInteger(wins) || !Number.isInteger(losses) || wins < 0 || losses < 0) {
    throw new RangeError(`signTestP: counts must be non-negative integers (got ${wins}, ${losses})`);
  }
  const t = binomialTails(wins, wins + losses, 0.5);
  return Math.min(1, 2 * Math.min(t.atMost, t.atLeast));
}

/**
 * Likelihood of superiority: the posterior probability that the first bot wins more often than it loses,
 * P(pW > pL | W, L), under a uniform prior on (pW, pD, pL). Draws drop out (pW / (pW + pL) is independent of
 * the draw rate under a Dirichlet), leaving P(Beta(W + 1, L + 1) > 1/2) = P(Binomial(W + L + 1, 1/2) ≤ W).
 * 0.5 with no decisive games. It exceeds 1 − α/2 whenever the sign test rejects at level α in the first bot's
 * favour (its tail is the sign test's mid-p tail, never larger than the exact one).
 */
export function likelihoodOfSuperiority(wins: number, losses: number): number {
  if (!Number.isInteger(wins) || !Number.isInteger(losses) || wins < 0 || losses < 0) {
    throw new RangeError(`likelihoodOfSuperiority: counts must be non-negative integers (got ${wins}, ${losses})`);
  }
  return binomialTails(wins, wins + losses + 1, 0.5).atMost;
}
