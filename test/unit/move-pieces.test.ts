import { describe, expect, it } from 'vitest';
import type { WireMoves } from '../../src/core/types.ts';
import { createRng } from '../../src/core/rng.ts';
import { BLOCK_BYTES, joinPieces, MoveRecorder } from '../../src/puzzles/move-pieces.ts';

/** Records `chunks` and joins them back. */
function roundTrip(form: 'text' | 'pairs', chunks: readonly WireMoves[]) {
  const r = new MoveRecorder(form);
  for (const c of chunks) r.push(c);
  const p = r.result();
  return { pieces: p, joined: joinPieces(p) };
}

describe('MoveRecorder', () => {
  it('move-pieces - text chunks of any length come back verbatim, in blocks of at most 1 MiB', () => {
    const rng = createRng('pieces-text');
    for (let trial = 0; trial < 20; trial++) {
      const chunks: string[] = [];
      for (let i = 0, n = 1 + rng.int(30); i < n; i++) {
        const len = rng.int(trial < 3 ? 400_000 : 2000);
        chunks.push(Array.from({ length: len }, () => '1234567890UDLR ABC'[rng.int(18)]).join(''));
      }
      const { pieces, joined } = roundTrip('text', chunks);
      expect(joined).toBe(chunks.join(''));
      expect(pieces.blocks.every((b) => b.length <= BLOCK_BYTES)).toBe(true);
      expect(pieces.bytes).toBe(chunks.join('').length);
    }
  });

  it('move-pieces - a character never splits across blocks (non-ASCII from a bad bot is kept as sent)', () => {
    const text = 'é'.repeat(BLOCK_BYTES / 2 - 1) + 'x' + '€😀'.repeat(1000);
    const { pieces, joined } = roundTrip('text', [text, 'UD']);
    // Every block is whole UTF-8 on its own: a strict decoder accepts each one.
    const strict = new TextDecoder('utf-8', { fatal: true });
    expect(pieces.blocks.length).toBeGreaterThan(2);
    expect(pieces.blocks.map((b) => strict.decode(b)).join('')).toBe(text + 'UD');
    expect(joined).toBe(text + 'UD');
  });

  it('move-pieces - pairs pack at 4 bytes (pieces < 65536) or 8 bytes a pair and come back equal', () => {
    const rng = createRng('pieces-pairs');
    const small: Array<[number, number]> = Array.from({ length: 300_000 }, () => [1 + rng.int(65_535), 1 + rng.int(65_535)]);
    const big: Array<[number, number]> = Array.from({ length: 1000 }, () => [1 + rng.int(1_000_000), 0xffffffff]);
    const chunks = [small.slice(0, 100_000), [], small.slice(100_000), big, small.slice(0, 5)];
    const { pieces, joined } = roundTrip('pairs', chunks);
    expect(joined).toEqual(chunks.flat());
    // 300,000 small pairs at 4 bytes; the big ones, and the small ones after them in the same block, at 8;
    // one 4-byte header a block.
    expect(pieces.bytes).toBe(300_000 * 4 + 1005 * 8 + 4 * pieces.blocks.length);
  });

  it('move-pieces - blocks fill up in both widths (a uint32 block has spare bytes no pair fits in)', () => {
    for (const top of [60_000, 1_000_000]) {
      const pairs: Array<[number, number]> = Array.from({ length: 600_000 }, (_, i) => [1 + (i % top), top]);
      const { pieces, joined } = roundTrip('pairs', [pairs.slice(0, 100_000), pairs.slice(100_000)]);
      expect(JSON.stringify(joined) === JSON.stringify(pairs)).toBe(true);
      expect(pieces.blocks.length).toBeGreaterThan(2);
      expect(pieces.blocks.every((b) => b.length <= BLOCK_BYTES)).toBe(true);
    }
  });

  it('move-pieces - values that are not packable (negative, fractional, not pairs, a string) are kept as sent', () => {
    const bad = [[1, 2], [-1, 3], [1.5, 2], [1, 2, 3], 'x'] as unknown as WireMoves;
    const { joined } = roundTrip('pairs', [[[5, 6]], bad, 'UD']);
    expect(joined).toEqual([[5, 6], [1, 2], [-1, 3], [1.5, 2], [1, 2, 3], 'x', 'UD']);
    // A text answer with a pair chunk keeps the chunk as JSON text.
    expect(roundTrip('text', ['UD', [[1, 2]]]).joined).toBe('UD[[1,2]]');
  });

  it("move-pieces - no chunk at all is the kind's empty answer", () => {
    expect(roundTrip('text', []).joined).toBe('');
    expect(roundTrip('pairs', []).joined).toEqual([]);
  });
});
