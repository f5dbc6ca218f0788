/**
 * How numbers and labels of a report read, shared by the CLI and the web pages so both say the same
 * thing the same way: a percentage that is not exactly 100% never prints as 100%, an infinite rating is
 * ±∞ (never a dash that reads as a minus sign), and an Elo-like number carries the unit of its model.
 */
import type { SprtParams } from '../../stats/sprt.ts';
import { OPTIMUM_PENDING } from '../../referee/scrambles/scramble-report.ts';

/** Decimals added at most to keep a value off an end it is not; closer than that it reads "> 99.999". */
const EXTRA_DIGITS = 3;

/**
 * `v` with at least `digits` decimals, more where rounding would print one of the ends `lo` or `hi`
 * that `v` is not: 299 wins of 300 is 99.7%, not 100%; one loss in 10,000 is 99.99%. Closer to an end than
 * `EXTRA_DIGITS` more decimals show, it reads "> 99.999" / "< 0.001". `open`: the true value is never an end
 * (a probability such as LOS), so a value that is an end only in floating point reads as the bound too.
 */
export function fixedWithin(v: number, digits: number, lo: number, hi: number, open = false): string {
  const exact = (end: number) => !open && v === end;
  let d = digits;
  for (; d <= digits + EXTRA_DIGITS; d++) {
    const shown = Number(v.toFixed(d));
    if ((shown !== hi || exact(hi)) && (shown !== lo || exact(lo))) return v.toFixed(d);
  }
  const step = 10 ** -(d - 1);
  return v > (lo + hi) / 2 ? `> ${(hi - step).toFixed(d - 1)}` : `< ${(lo + step).toFixed(d - 1)}`;
}

/**
 * A fraction in [0, 1] as a percentage, "100%" and "0%" only when exact; `open` for a probability that is
 * never exactly 0 or 1 (LOS): "> 99.999%" where floating point says 1.
 */
export function percentText(fraction: number, digits = 0, open = false): string {
  return `${fixedWithin(fraction * 100, digits, 0, 100, open)}%`;
}

/** A fraction in [0, 1] with `digits` decimals, "1.000" and "0.000" only when exact. */
export function fractionText(fraction: number, digits: number): string {
  return fixedWithin(fraction, digits, 0, 1);
}

/**
 * An Elo-like rating: "+∞" / "−∞" where a 100% or 0% score makes it infinite, else fixed decimals (with a
 * "+" on positive values when `signed`).
 */
export function ratingText(v: number, digits: number, signed = false): string {
  if (v === Infinity) return '+∞';
  if (v === -Infinity) return '−∞';
  const text = v.toFixed(digits);
  return signed && v > 0 && Number(text) !== 0 ? `+${text}` : text;
}

/** The unit of an SPRT's Elo bounds: normalized Elo (nElo) or logistic Elo, as its model says. */
export function eloUnit(model: SprtParams['model']): 'nElo' | 'Elo' {
  return model === 'normalized' ? 'nElo' : 'Elo';
}

/**
 * A match's scrambles in a listing: "7/20" while it runs or waits; a finished match is complete, so one that
 * stopped early (its SPRT decided) reads "53 of 200" rather than looking unfinished at 53/200.
 */
export function scramblesText(done: number, planned: number | null, status: string): string {
  if (status === 'finished' && planned !== null && done < planned) return `${done} of ${planned}`;
  return `${done}/${planned ?? '?'}`;
}

/**
 * The note under a report's bot table about the scrambles played that have no exact optimum (undefined when
 * every one has it): those whose proof is still due read "optimum pending" (a match proves the optima of
 * what it played before it finishes, an SPRT that decided early included); the rest have only a lower bound.
 */
export function boundOnlyText(scrambles: readonly { readonly optimal?: number; readonly boundNote?: string }[], played: number): string | undefined {
  const open = scrambles.filter((s) => s.optimal === undefined);
  const pending = open.filter((s) => s.boundNote === OPTIMUM_PENDING).length;
  const bound = open.length - pending;
  const parts: string[] = [];
  if (pending > 0) parts.push(`${pending} of ${played} scrambles played: ${OPTIMUM_PENDING} (being proved; arena show has it once found)`);
  if (bound > 0) parts.push(`${bound} of ${played} scrambles played have only a lower bound: there the gap is to the bound, and optimal cannot be told`);
  return parts.length > 0 ? `(${parts.join('; ')})` : undefined;
}
