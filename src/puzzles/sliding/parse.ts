import type { Result, SlidingState } from '../../core/types.ts';
import { ok, reject } from '../../core/types.ts';
import { sideError } from './spec.ts';
import { unsolvableReason } from './parity.ts';

function bad(reason: string): Result<SlidingState> {
  return reject('bad-state', reason);
}

/**
 * Parses and validates a sliding state from its canonical JSON (already JSON.parse'd):
 * `{"kind":"sliding","rows":R,"cols":C,"tiles":[...]}`. Checks shape, that the tiles are a permutation of
 * 0..R·C−1, and solvability. Extra fields are ignored; the result is a fresh canonical object.
 */
export function parseSliding(json: unknown): Result<SlidingState> {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return bad('a sliding state must be a JSON object like {"kind":"sliding","rows":3,"cols":3,"tiles":[...]}');
  }
  const o = json as { kind?: unknown; rows?: unknown; cols?: unknown; tiles?: unknown };
  if (o.kind !== 'sliding') return bad(`expected kind "sliding", got ${JSON.stringify(o.kind) ?? 'nothing'}`);
  const sideErr = sideError('rows', o.rows) ?? sideError('cols', o.cols);
  if (sideErr) return bad(sideErr);
  const rows = o.rows as number;
  const cols = o.cols as number;
  if (!Array.isArray(o.tiles)) return bad(`tiles must be an array of ${rows * cols} integers`);
  const src = o.tiles as unknown[];
  const n = rows * cols;
  if (src.length !== n) return bad(`expected ${n} tiles for ${rows}x${cols}, got ${src.length}`);
  // where[t] = 1 + first index holding tile t (0 = not seen yet).
  const where = new Int32Array(n);
  const tiles = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const t = src[i];
    if (typeof t !== 'number' || !Number.isInteger(t)) {
      return bad(`tile at index ${i} is not an integer: ${JSON.stringify(t) ?? String(t)}`);
    }
    if (t < 0 || t >= n) return bad(`tile at index ${i} is out of range: ${t} (expected 0..${n - 1}, 0 = blank)`);
    if (where[t] !== 0) {
      const name = t === 0 ? 'the blank (0)' : `tile ${t}`;
      return bad(`duplicate: ${name} appears at indexes ${where[t] - 1} and ${i}; ${missingName(src, n)} is missing`);
    }
    where[t] = i + 1;
    tiles[i] = t;
  }
  const why = unsolvableReason(tiles, rows, cols);
  if (why) return reject('unsolvable', why);
  return ok({ kind: 'sliding', rows, cols, tiles });
}

/** Names the smallest value of 0..n−1 absent from `src` (only called when one must be). */
function missingName(src: readonly unknown[], n: number): string {
  const seen = new Uint8Array(n);
  for (const t of src) if (typeof t === 'number' && Number.isInteger(t) && t >= 0 && t < n) seen[t] = 1;
  const m = seen.indexOf(0);
  return m === 0 ? 'the blank (0)' : `tile ${m}`;
}
