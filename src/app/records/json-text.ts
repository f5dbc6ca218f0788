/**
 * The JSON text of a report, the same from the CLI's --json and the web's /api. JSON has no infinity, and
 * JSON.stringify writes ±Infinity as null, which would read as "no estimate": an undefeated pair's Elo is
 * +∞ (a score of 100%), not unknown. Infinite numbers are written as the strings "Infinity" and
 * "-Infinity" instead, which Number() in JavaScript and float() in Python read back as the number. null
 * keeps its meaning: nothing to estimate (no games, or no spread for normalized Elo); NaN never occurs.
 */

/** JSON.stringify replacer: ±Infinity → "Infinity" / "-Infinity". */
export function infinityAsText(_key: string, value: unknown): unknown {
  if (typeof value === 'number' && !Number.isFinite(value) && !Number.isNaN(value)) return value > 0 ? 'Infinity' : '-Infinity';
  return value;
}

/** `value` as JSON text, infinite numbers as strings. */
export function jsonText(value: unknown): string {
  return JSON.stringify(value, infinityAsText);
}

/** `value` as the plain JSON value {@link jsonText} describes (for servers that serialize it themselves). */
export function jsonValue(value: unknown): unknown {
  return JSON.parse(jsonText(value)) as unknown;
}
