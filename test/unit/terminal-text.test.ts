import { describe, expect, it } from 'vitest';
import { terminalText } from '../../src/cli/terminal-text.ts';

describe('terminal text', () => {
  it('terminalText - spells C0 (but tab and newline), DEL and C1 as \\u00XX', () => {
    expect(terminalText('a\x1b]0;title\x07b')).toBe(String.raw`a\u001b]0;title\u0007b`);
    expect(terminalText('x\u009b2Ky\x7f\r\0')).toBe(String.raw`x\u009b2Ky\u007f\u000d\u0000`);
  });

  it('terminalText - leaves tabs, newlines and ordinary text (accents, box drawing, emoji) alone', () => {
    const text = 'bot\tmoves\n≥ 3 · é │ 😀 \u00a0';
    expect(terminalText(text)).toBe(text);
  });

  it('terminalText - keeps JSON valid with the same data when the text is JSON', () => {
    const value = { note: 'a\x7f\u0085\u009fb' };
    const shown = terminalText(JSON.stringify(value));
    expect(shown).not.toMatch(/[\u007f-\u009f]/);
    expect(JSON.parse(shown)).toEqual(value);
  });

  it('terminalText - is the same on a second pass (nothing left to escape)', () => {
    const once = terminalText('\x1b[31mred\x1b[0m');
    expect(terminalText(once)).toBe(once);
  });
});
