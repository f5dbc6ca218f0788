import type { Rng } from '../../core/rng.ts';

const PEG_LETTERS = 'ABC';

/** The result of a random Hanoi walk: where it ends and the moves it took (compact "ACAB…" notation). */
export interface HanoiWalk {
  readonly end: string;
  readonly moves: string;
}

/**
 * Random walk of exactly k legal moves from `from` (peg letters, smallest disc first), never immediately
 * undoing the previous move. With at least one disc there are always 2 or 3 legal moves, so after excluding
 * the undo at least one remains. Each step picks uniformly among the remaining legal moves.
 */
export function hanoiWalk(from: string, k: number, rng: Rng): HanoiWalk {
  const n = from.length;
  const stacks = new Uint8Array(3 * n);
  const heights = new Int32Array(3);
  const pegOf = new Uint8Array(n);
  for (let d = n - 1; d >= 0; d--) {
    const p = from.charCodeAt(d) - 65;
    pegOf[d] = p;
    stacks[p * n + heights[p]++] = d;
  }
  const moveCodes = new Uint8Array(2 * k);
  const candFrom = new Int32Array(6);
  const candTo = new Int32Array(6);
  let lastFrom = -1;
  let lastTo = -1;
  for (let step = 0; step < k; step++) {
    let c = 0;
    for (let f = 0; f < 3; f++) {
      const hf = heights[f];
      if (hf === 0) continue;
      const disc = stacks[f * n + hf - 1];
      for (let t = 0; t < 3; t++) {
        if (t === f || (f === lastTo && t === lastFrom)) continue;
        const ht = heights[t];
        if (ht > 0 && stacks[t * n + ht - 1] < disc) continue;
        candFrom[c] = f;
        candTo[c] = t;
        c++;
      }
    }
    const pick = rng.int(c);
    const f = candFrom[pick];
    const t = candTo[pick];
    const disc = stacks[f * n + --heights[f]];
    stacks[t * n + heights[t]++] = disc;
    pegOf[disc] = t;
    moveCodes[2 * step] = 65 + f;
    moveCodes[2 * step + 1] = 65 + t;
    lastFrom = f;
    lastTo = t;
  }
  let end = '';
  for (let d = 0; d < n; d++) end += PEG_LETTERS[pegOf[d]];
  return { end, moves: codesToString(moveCodes) };
}

/** Latin-1 codes to a string in slices, so long walks do not overflow the argument limit of fromCharCode. */
function codesToString(codes: Uint8Array): string {
  const parts: string[] = [];
  for (let i = 0; i < codes.length; i += 8192) {
    parts.push(String.fromCharCode(...codes.subarray(i, i + 8192)));
  }
  return parts.join('');
}
