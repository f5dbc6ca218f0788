/**
 * The kinds of value a match setting takes: how a flag's text or a preset's JSON value is read (one
 * message per kind of mistake, worded to follow the flag's name: "--count must be …"), how the value is
 * checked when it comes back from a database, and how it is spelled again for people (`10s`, `512m`).
 */
import { z } from 'zod';
import type { Result } from '../../core/types.ts';
import { ok, reject } from '../../core/types.ts';
import { parseByteSize, parseDuration, spellByteSize, spellDuration } from '../../core/units.ts';

/** An inclusive range. */
export interface Range {
  readonly min: number;
  readonly max: number;
}

/** How one kind of value is read, stored and shown. */
export interface ValueType<V> {
  /** Commander's placeholder for the flag's value (`<t>`); absent for a switch, which takes none. */
  readonly placeholder?: string;
  /**
   * Reads a flag's text or a preset's JSON value. The reason reads after the flag's name ("needs a unit
   * (ms, s, m or h), got \"10\": did you mean 10s?"), so the CLI and a preset word a mistake alike.
   */
  read(input: unknown): Result<V>;
  /** The stored form, checked when a config comes back from a database. */
  readonly stored: z.ZodType<V>;
  /** The value as a flag or a preset spells it: what `--json`, the web view and a preset show. */
  spell(value: V): string | number | boolean;
}

const text = (input: unknown): string | undefined => (typeof input === 'string' ? input : typeof input === 'number' && Number.isFinite(input) ? String(input) : undefined);

/** A whole number within `range`; a preset may give it as a JSON number or as text. */
export function wholeNumber(placeholder: string, range: Range): ValueType<number> {
  return {
    placeholder,
    read(input) {
      const t = text(input)?.trim();
      const n = Number(t);
      if (t === undefined || !/^\d+$/.test(t) || n < range.min || n > range.max) {
        return reject('bad-number', `must be a whole number from ${range.min} to ${range.max}, got ${JSON.stringify(text(input) ?? input)}`);
      }
      return ok(n);
    },
    stored: z.number().int().min(range.min).max(range.max),
    spell: (v) => v,
  };
}

/**
 * A size of a board or a tower: only its form is checked here, since its range is the puzzle kind's,
 * which says it in one message for every out-of-range value (0 and 1 alike).
 */
export function sizeNumber(placeholder: string): ValueType<number> {
  return {
    placeholder,
    read(input) {
      const t = text(input);
      if (t === undefined || !/^\d+$/.test(t.trim())) return reject('bad-number', `must be a whole number, got ${JSON.stringify(t ?? input)}`);
      return ok(Number(t.trim()));
    },
    stored: z.number().int().positive(),
    spell: (v) => v,
  };
}

/**
 * A time with its unit, as milliseconds within `range`. A bare number (JSON 30 or "30") is refused with the
 * unit it most likely meant, which `typicalMs` (the usual value) decides. `stored` narrows the stored
 * check where the setting's format does (whole milliseconds, its range).
 */
export function duration(placeholder: string, range: Range, typicalMs: number, stored: z.ZodType<number> = z.number()): ValueType<number> {
  return {
    placeholder,
    read(input) {
      const t = text(input);
      if (t === undefined) return reject('bad-duration', 'must be a time with its unit, e.g. "30s"');
      const ms = parseDuration(t, { ...range, typical: typicalMs });
      if (!ms.ok) return ms;
      if (ms.value < range.min || ms.value > range.max) {
        return reject('bad-duration', `must be from ${range.min} ms to ${range.max} ms (${range.max / 3_600_000} h), got "${t}"`);
      }
      return ms;
    },
    stored,
    spell: spellDuration,
  };
}

/** A memory size with its unit, as bytes within `range`; a bare number is refused with its likely unit. */
export function byteSize(placeholder: string, range: Range, typicalBytes: number): ValueType<number> {
  const mib = (n: number) => `${+(n / 2 ** 20).toFixed(1)} MiB`;
  return {
    placeholder,
    read(input) {
      const t = text(input);
      if (t === undefined) return reject('bad-size', 'must be a size with its unit, e.g. "512m"');
      const bytes = parseByteSize(t, { ...range, typical: typicalBytes });
      if (!bytes.ok) return bytes;
      if (bytes.value < range.min || bytes.value > range.max) return reject('bad-size', `must be from ${mib(range.min)} to ${mib(range.max)}, got ${mib(bytes.value)}`);
      return bytes;
    },
    stored: z.number().int().min(range.min).max(range.max),
    spell: spellByteSize,
  };
}

/** One of a few words. */
export function choice<const W extends string>(placeholder: string, words: readonly [W, ...W[]]): ValueType<W> {
  return {
    placeholder,
    read(input) {
      if (typeof input === 'string' && (words as readonly string[]).includes(input)) return ok(input as W);
      return reject('bad-choice', `must be ${words.join(' or ')} (got ${JSON.stringify(input)})`);
    },
    stored: z.enum(words) as unknown as z.ZodType<W>,
    spell: (v) => v,
  };
}

/** Text within `length` characters (a seed: a JSON number in a preset is its digits). */
export function shortText(placeholder: string, length: Range): ValueType<string> {
  return {
    placeholder,
    read(input) {
      const t = text(input);
      if (t === undefined) return reject('bad-text', `must be text, got ${JSON.stringify(input)}`);
      if (t.trim().length < length.min) return reject('bad-text', 'must not be empty');
      if (t.length > length.max) return reject('bad-text', `must be at most ${length.max} characters, got ${t.length}`);
      return ok(t);
    },
    stored: z.string().min(length.min).max(length.max),
    spell: (v) => v,
  };
}

/**
 * An on/off setting. Its flag takes no value: given, the setting is `whenGiven` (`--affinity` on,
 * `--no-warm-up` off). A preset says true or false.
 */
export function onOff(whenGiven: boolean): ValueType<boolean> & { readonly whenGiven: boolean } {
  return {
    whenGiven,
    read: (input) => (typeof input === 'boolean' ? ok(input) : reject('bad-switch', `must be true or false, got ${JSON.stringify(input)}`)),
    stored: z.boolean(),
    spell: (v) => v,
  };
}

/** A value with a reader of its own (an SPRT design), stored as `stored` and spelled back by `spell`. */
export function custom<V>(placeholder: string, read: (text: string) => Result<V>, stored: z.ZodType<V>, spell: (v: V) => string): ValueType<V> {
  return {
    placeholder,
    read: (input) => (typeof input === 'string' ? read(input) : reject('bad-text', `must be text, got ${JSON.stringify(input)}`)),
    stored,
    spell,
  };
}
