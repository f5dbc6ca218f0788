/**
 * Streams a {@link HanoiPlan} as move text ("ACAB...") in chunks, so a 24-disc answer (16.7 M moves, 33.5 MB
 * of text) never exists as one string: at most one chunk buffer plus the chunk being sent are alive.
 */
import type { HanoiPlan } from './plan.ts';

/** Default chunk size in characters (2 per move): about 1 MB, well under the protocol's 4 MB payload. */
export const DEFAULT_CHUNK_CHARS = 1 << 20;

const LATIN1 = new TextDecoder('latin1');

/**
 * Yields the plan's moves as strings of at most `chunkChars` characters (rounded down to whole moves).
 *
 * A tower segment of m discs from a to b uses the binary method of seed 002: move s (1 ≤ s < 2^m) moves
 * disc ctz(s), and disc d always steps the same way round the cycle a → b → c → a: forward when m−1−d is
 * even (the largest disc goes a → b in one step), backward otherwise. That is O(1) per move, no recursion.
 */
export function* planChunks(plan: HanoiPlan, chunkChars = DEFAULT_CHUNK_CHARS): Generator<string, void, undefined> {
  // Never allocate more than the whole answer needs: short plans are common and chunks are ~1 MB.
  const size = Math.max(2, Math.min(chunkChars & ~1, 2 * plan.moves));
  const buf = new Uint8Array(size);
  let len = 0;
  const cyc = new Uint8Array(3);
  const where = new Uint8Array(32); // cyclic index 0..2 of each disc during a tower segment
  for (const seg of plan.segments) {
    if (seg.type === 'move') {
      buf[len++] = 65 + seg.from;
      buf[len++] = 65 + seg.to;
      if (len === size) {
        yield LATIN1.decode(buf);
        len = 0;
      }
      continue;
    }
    const m = seg.count;
    cyc[0] = seg.from;
    cyc[1] = seg.to;
    cyc[2] = 3 - seg.from - seg.to;
    where.fill(0, 0, m);
    const last = 2 ** m;
    for (let step = 1; step < last; step++) {
      const d = 31 - Math.clz32(step & -step); // lowest set bit: which disc moves
      const at = where[d];
      const next = ((m - 1 - d) & 1) === 0 ? (at === 2 ? 0 : at + 1) : at === 0 ? 2 : at - 1;
      where[d] = next;
      buf[len++] = 65 + cyc[at];
      buf[len++] = 65 + cyc[next];
      if (len === size) {
        yield LATIN1.decode(buf);
        len = 0;
      }
    }
  }
  if (len > 0) yield LATIN1.decode(buf.subarray(0, len));
}
