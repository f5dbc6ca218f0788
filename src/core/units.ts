/**
 * Times and memory sizes as people write them ("10s", "500ms", "512m", "2GiB"). A number without a unit
 * is refused rather than guessed: `--time-limit 10` used to mean 10 ms and cost a whole match of
 * timeouts. The refusal names the unit the number most likely meant, or both when either is as likely.
 * Shared by the CLI's flags and the presets (matches/*.json) through the settings schema
 * (src/referee/settings/), so both read a time the same way.
 */
import type { Result } from './types.ts';
import { reject } from './types.ts';

/** What a quantity may be, and the value it usually has (which decides the likely unit of a bare number). */
export interface QuantityRange {
  readonly min: number;
  readonly max: number;
  /** A usual value (the default, say): a bare number is read in the unit that lands nearest to it. */
  readonly typical: number;
}

const TIME_UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const SIZE_UNITS: Readonly<Record<string, number>> = {
  b: 1,
  k: 2 ** 10,
  kb: 2 ** 10,
  kib: 2 ** 10,
  m: 2 ** 20,
  mb: 2 ** 20,
  mib: 2 ** 20,
  g: 2 ** 30,
  gb: 2 ** 30,
  gib: 2 ** 30,
  t: 2 ** 40,
  tb: 2 ** 40,
  tib: 2 ** 40,
};

/** The units a bare number is offered in, most common first. */
const TIME_GUESSES = ['s', 'ms'] as const;
const SIZE_GUESSES = ['m', 'g', 'k'] as const;

/** Two readings closer than this factor (in how far each lands from the usual value) are both offered. */
const AMBIGUOUS = Math.log(10);

/**
 * The likely spellings of a bare `number`: the units that put it in range, nearest the typical value
 * first; one when it is clearly the likelier, two when they are about as likely.
 */
export function unitGuesses(number: number, units: Readonly<Record<string, number>>, guesses: readonly string[], r: QuantityRange): string[] {
  const scored = guesses
    .map((u) => ({ u, v: number * units[u]! }))
    .filter((x) => x.v >= r.min && x.v <= r.max)
    .map((x) => ({ u: x.u, d: x.v > 0 ? Math.abs(Math.log(x.v / r.typical)) : Infinity }))
    .sort((a, b) => a.d - b.d);
  if (scored.length === 0) return [];
  const near = scored.filter((x, i) => i === 0 || x.d - scored[0].d < AMBIGUOUS).slice(0, 2);
  return near.map((x) => `${number}${x.u}`);
}

function noUnit(text: string, guesses: string[], units: string): string {
  const hint = guesses.length === 0 ? '' : guesses.length === 1 ? `: did you mean ${guesses[0]}?` : `: did you mean ${guesses[0]} or ${guesses[1]}?`;
  return `needs a unit (${units}), got "${text}"${hint}`;
}

/** Reads a duration with its unit (ms, s, m, h; decimals allowed) as milliseconds, not yet range-checked. */
export function parseDuration(text: string, r: QuantityRange): Result<number> {
  const m = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(text.trim());
  if (!m) return reject('bad-duration', `must be a duration like 500ms, 10s or 2m, got "${text}"`);
  if (m[2] === '') return reject('no-unit', noUnit(text.trim(), unitGuesses(Number(m[1]), TIME_UNITS, TIME_GUESSES, r), 'ms, s, m or h'));
  const scale = TIME_UNITS[m[2]!.toLowerCase()];
  if (scale === undefined) return reject('bad-duration', `must be a duration like 500ms, 10s or 2m (units ms, s, m, h), got "${text}"`);
  return { ok: true, value: Math.round(Number(m[1]) * scale) };
}

/** Reads a memory size with its unit (k, m, g, t, binary; also KiB/MB spellings, or b for bytes) as bytes. */
export function parseByteSize(text: string, r: QuantityRange): Result<number> {
  const m = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(text.trim());
  if (!m) return reject('bad-size', `must be a size like 512m, 2g or 1.5GiB, got "${text}"`);
  if (m[2] === '') return reject('no-unit', noUnit(text.trim(), unitGuesses(Number(m[1]), SIZE_UNITS, SIZE_GUESSES, r), 'k, m, g or t'));
  const scale = SIZE_UNITS[m[2]!.toLowerCase()];
  if (scale === undefined) return reject('bad-size', `must be a size like 512m, 2g or 1.5GiB, got "${text}"`);
  return { ok: true, value: Math.floor(Number(m[1]) * scale) };
}

/** Spells milliseconds with the largest unit that keeps them whole ("10s", "2m", "500ms"): the form a flag takes. */
export function spellDuration(ms: number): string {
  for (const u of ['h', 'm', 's'] as const) if (ms > 0 && ms % TIME_UNITS[u]! === 0) return `${ms / TIME_UNITS[u]!}${u}`;
  return `${ms}ms`;
}

/** Spells bytes with the largest binary unit that keeps them whole ("2g", "512m"): the form a flag takes. */
export function spellByteSize(bytes: number): string {
  for (const u of ['t', 'g', 'm', 'k'] as const) if (bytes > 0 && bytes % SIZE_UNITS[u]! === 0) return `${bytes / SIZE_UNITS[u]!}${u}`;
  return `${bytes}b`;
}
