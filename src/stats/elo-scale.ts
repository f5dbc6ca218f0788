/**
 * The constants of the Elo scales, in a module of their own so the Bradley–Terry fit (the leaderboard, run
 * per result) and the SPRT import them without the exact-interval code and its special functions.
 */

/** Two-sided 95% standard normal quantile, Φ⁻¹(0.975). */
export const Z_95 = 1.959963984540054;

/** Normalized Elo per unit of t-value (mean score excess over its per-game standard deviation): 800 / ln 10. */
export const NELO_PER_T = 800 / Math.LN10;
