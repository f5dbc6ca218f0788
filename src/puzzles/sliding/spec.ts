import type { Result, ScrambleSpec } from '../../core/types.ts';
import { ok, reject } from '../../core/types.ts';

/** Smallest side of a sliding board (a 1×C board has unreachable halves that are not a puzzle). */
export const SLIDING_MIN_SIDE = 2;
/** Largest side of a sliding board: 1000×1000 = a million cells, still validated in milliseconds. */
export const SLIDING_MAX_SIDE = 1000;

/** A normalized sliding spec: rows and cols always present. */
export interface SlidingSpec extends ScrambleSpec {
  readonly kind: 'sliding';
  readonly rows: number;
  readonly cols: number;
}

/** Why `value` is not a valid side length for `name`, or null when it is. */
export function sideError(name: string, value: unknown): string | null {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < SLIDING_MIN_SIDE || value > SLIDING_MAX_SIDE) {
    return `${name} must be an integer from ${SLIDING_MIN_SIDE} to ${SLIDING_MAX_SIDE}, got ${JSON.stringify(value) ?? String(value)}`;
  }
  return null;
}

/**
 * Validates a scramble spec: `{size}` (square) or `{rows, cols}`; when both are given they must agree.
 * Returns `{kind:'sliding', rows, cols}`.
 */
export function normalizeSlidingSpec(spec: ScrambleSpec): Result<SlidingSpec> {
  if (typeof spec !== 'object' || spec === null) return reject('bad-spec', 'a sliding spec must be an object');
  if (spec.kind !== 'sliding') return reject('bad-spec', `expected kind "sliding", got ${JSON.stringify(spec.kind)}`);
  const hasSize = spec.size !== undefined;
  const hasRows = spec.rows !== undefined;
  const hasCols = spec.cols !== undefined;
  if (!hasSize && !hasRows && !hasCols) return reject('bad-spec', 'a sliding spec needs size, or rows and cols');
  if (hasSize) {
    const e = sideError('size', spec.size);
    if (e) return reject('bad-spec', e);
  }
  if (hasRows !== hasCols && !hasSize) {
    return reject('bad-spec', hasRows ? 'rows given without cols' : 'cols given without rows');
  }
  const rows = hasRows ? spec.rows : spec.size;
  const cols = hasCols ? spec.cols : spec.size;
  const er = sideError('rows', rows) ?? sideError('cols', cols);
  if (er) return reject('bad-spec', er);
  if (hasSize && ((hasRows && rows !== spec.size) || (hasCols && cols !== spec.size))) {
    return reject('bad-spec', `size ${spec.size} contradicts rows ${rows} / cols ${cols}`);
  }
  return ok({ kind: 'sliding', rows: rows as number, cols: cols as number });
}

/** Like {@link normalizeSlidingSpec} but for callers that were promised a valid spec: throws otherwise. */
export function requireSlidingSpec(spec: ScrambleSpec): SlidingSpec {
  const r = normalizeSlidingSpec(spec);
  if (!r.ok) throw new RangeError(`sliding: invalid spec (normalizeSpec first): ${r.reason}`);
  return r.value;
}
