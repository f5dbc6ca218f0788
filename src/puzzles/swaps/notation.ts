import type { Result, WireMoves } from '../../core/types.ts';
import { ok, reject } from '../../core/types.ts';
import { preview } from './replayer.ts';

/** Checks that a parsed value is an array of [a, b] positive-integer pairs (piece ranges are the replayer's job). */
function checkPairs(value: unknown): Result<WireMoves> {
  if (!Array.isArray(value)) return reject('bad-notation', `swaps moves must be a JSON array of pairs, got ${preview(value)}`);
  for (let i = 0; i < value.length; i++) {
    const m: unknown = value[i];
    if (!Array.isArray(m) || m.length !== 2 || !m.every((x) => Number.isInteger(x) && (x as number) >= 1)) {
      return reject('bad-notation', `move ${i}: expected a pair of piece numbers [a,b], got ${preview(m)}`);
    }
  }
  return ok(value as Array<[number, number]>);
}

/** One "(6,7)" pair of the seed's text form, with optional separators before it. */
const PAIR = /[\s,]*\(\s*(\d+)\s*,\s*(\d+)\s*\)/y;
const TRAILING = /[\s,]*$/y;

/**
 * Parses swap moves from user text: compact JSON `[[6,7],[2,4]]`, or seed 004's "(6,7), (2,4)".
 * Empty text is an empty solution.
 */
export function parseSwapsMoves(text: string): Result<WireMoves> {
  const trimmed = text.trim();
  if (trimmed === '') return ok([]);
  if (trimmed.startsWith('[')) {
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch (e) {
      return reject('bad-notation', `swaps moves are not valid JSON: ${(e as Error).message.split('\n')[0]}`);
    }
    return checkPairs(value);
  }
  const out: Array<[number, number]> = [];
  let at = 0;
  for (;;) {
    TRAILING.lastIndex = at;
    if (TRAILING.test(trimmed)) break;
    PAIR.lastIndex = at;
    const m = PAIR.exec(trimmed);
    if (!m) {
      return reject('bad-notation', `move ${out.length}: expected "(a,b)" at character ${at}, got ${preview(trimmed.slice(at, at + 12))}`);
    }
    out.push([Number(m[1]), Number(m[2])]);
    at = PAIR.lastIndex;
  }
  return checkPairs(out);
}

/** Formats swap moves as compact JSON, the wire and file form. */
export function formatSwapsMoves(moves: WireMoves): string {
  return typeof moves === 'string' ? moves : JSON.stringify(moves);
}
