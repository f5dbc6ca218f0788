import { describe, expect, it } from 'vitest';
import { PALETTE, PageColours, paletteColour } from '../../src/web/bot-colour.ts';

describe('web colours - one colour per bot within a page', () => {
  it('page colours - bots that a name hash coloured alike get different colours', () => {
    // Names chosen to collide under the old 48-colour FNV-1a hash is not needed: any page of bots must
    // come out distinct, so take many names with shared prefixes, as real bots have.
    const bots = Array.from({ length: 40 }, (_, i) => `bot-${i}`);
    const c = new PageColours(bots);
    expect(new Set(bots.map((b) => c.of(b))).size).toBe(bots.length);
  });

  it('page colours - stable: name order, not the order or repetition the page lists them in', () => {
    const a = new PageColours(['ida-star', 'constructive', 'dijkstra']);
    const b = new PageColours(['dijkstra', 'ida-star', 'ida-star', 'constructive']);
    for (const bot of ['ida-star', 'constructive', 'dijkstra']) expect(a.of(bot)).toBe(b.of(bot));
    expect(a.of('constructive')).toBe(PALETTE[0]);
    expect(a.of('dijkstra')).toBe(PALETTE[1]);
    expect(a.of('ida-star')).toBe(PALETTE[2]);
  });

  it('palette - distinct past its ten named colours', () => {
    const colours = Array.from({ length: 60 }, (_, i) => paletteColour(i));
    expect(new Set(colours).size).toBe(60);
    expect(colours.slice(0, PALETTE.length)).toEqual(PALETTE);
  });

  it('page colours - a hostile name is escaped in the colour block and a swatch carries only a palette colour', () => {
    const evil = '</script><script>alert(1)</script>';
    const c = new PageColours([evil, 'ok']);
    expect(c.block().text).not.toContain('</script><script>');
    expect(c.swatch(evil).text).toContain(`fill="${c.of(evil)}"`);
    expect(() => c.of('not-on-this-page')).toThrow(/no colour/);
  });
});
