/**
 * Text under a byte cap (core/capped-text.ts): kept whole up to the cap, else its first and last bytes and
 * the count cut between; joining pieces keeps one cap however many pieces; no cut splits a character.
 */
import { describe, expect, it } from 'vitest';
import { CappedTextBuilder, capText, joinCapped, NO_TEXT, showCapped, utf8Bytes, type TextCap } from '../../src/core/capped-text.ts';

const SMALL: TextCap = { headBytes: 6, tailBytes: 4 };
const KiB = 1024;

describe('capped text', () => {
  it('capText - text up to the cap is kept whole; longer text keeps its first and last bytes and counts the rest', () => {
    expect(capText('abcdefghij', SMALL)).toEqual({ head: 'abcdefghij', tail: '', cutBytes: 0 });
    expect(capText('abcdefghijk', SMALL)).toEqual({ head: 'abcdef', tail: 'hijk', cutBytes: 1 });
    const mib = 'x'.repeat(1024 * KiB - 1) + 'Z';
    const t = capText(mib);
    expect([utf8Bytes(t.head), utf8Bytes(t.tail), t.cutBytes]).toEqual([48 * KiB, 16 * KiB, 1024 * KiB - 64 * KiB]);
    expect(t.tail.endsWith('Z')).toBe(true);
  });

  it('capText - a cut never splits a character: a kept end is shorter instead', () => {
    // 'é' is 2 bytes: 3 of them are 6 bytes, the head; a fourth would split at byte 6 → 7.
    const t = capText('ééééé€€', SMALL);
    expect(t.head).toBe('ééé');
    expect(t.tail).toBe('€');
    expect(utf8Bytes(t.head) + utf8Bytes(t.tail) + t.cutBytes).toBe(utf8Bytes('ééééé€€'));
    expect(showCapped(t)).not.toContain('\uFFFD');
  });

  it('joinCapped - pieces join under one cap: whole while they fit, then the first bytes of the first and the last of the last', () => {
    const a = capText('abc', SMALL);
    expect(joinCapped(a, capText('def', SMALL), SMALL)).toEqual({ head: 'abcdef', tail: '', cutBytes: 0 });
    const cutA = capText('0123456789ABCDEF', SMALL); // head 012345, 6 cut, tail CDEF
    expect(cutA).toEqual({ head: '012345', tail: 'CDEF', cutBytes: 6 });
    // After a cut piece: its head stays, the tail is the last bytes of everything after the cut.
    expect(joinCapped(cutA, capText('xy', SMALL), SMALL)).toEqual({ head: '012345', tail: 'EFxy', cutBytes: 8 });
    // Two cut pieces: what lay between the cuts is cut too.
    const cutB = capText('abcdefghijklmnop', SMALL);
    const both = joinCapped(cutA, cutB, SMALL);
    expect(both).toEqual({ head: '012345', tail: 'mnop', cutBytes: 6 + 4 + 6 + 6 });
    // Nothing is lost from the count: kept + cut = everything written.
    expect(utf8Bytes(both.head) + utf8Bytes(both.tail) + both.cutBytes).toBe(32);
    expect(joinCapped(NO_TEXT, cutB, SMALL)).toEqual(cutB);
  });

  it('showCapped - head, one line naming the bytes cut, tail; uncut text as it was', () => {
    expect(showCapped({ head: 'abc\n', tail: 'xyz\n', cutBytes: 12 })).toBe('abc\n[… 12 bytes cut]\nxyz\n');
    expect(showCapped({ head: 'abc', tail: 'xyz', cutBytes: 1 })).toBe('abc\n[… 1 bytes cut]\nxyz');
    expect(showCapped({ head: 'all of it', tail: '', cutBytes: 0 })).toBe('all of it');
  });

  it('CappedTextBuilder - chunks of 1 MiB in all keep 64 KiB and the exact count; take hands over and starts afresh', () => {
    const b = new CappedTextBuilder();
    expect(b.take()).toBeUndefined();
    b.push('START');
    for (let i = 0; i < 16; i++) b.push('y'.repeat(64 * KiB));
    b.push('END');
    const t = b.take()!;
    expect(t.head.startsWith('START')).toBe(true);
    expect(t.tail.endsWith('END')).toBe(true);
    expect(utf8Bytes(t.head) + utf8Bytes(t.tail)).toBe(64 * KiB);
    expect(t.cutBytes).toBe(16 * 64 * KiB + 8 - 64 * KiB);
    expect(b.take()).toBeUndefined();
    b.push('again');
    expect(b.take()).toEqual({ head: 'again', tail: '', cutBytes: 0 });
  });
});

describe('capped text builder', () => {
  it('CappedTextBuilder - byte-sized and odd-sized chunks give what capText gives the whole, character boundaries included', () => {
    const whole = 'héllo wörld € '.repeat(9000);
    for (const size of [1, 7, 4096, 20_000]) {
      const b = new CappedTextBuilder();
      for (let i = 0; i < whole.length; i += size) b.push(whole.slice(i, i + size));
      expect(b.take(), `chunks of ${size}`).toEqual(capText(whole));
    }
    const small = new CappedTextBuilder(SMALL);
    for (const c of 'abcdefghijklmnopqrstuvwxyz') small.push(c);
    expect(small.take()).toEqual({ head: 'abcdef', tail: 'wxyz', cutBytes: 16 });
  });
});
