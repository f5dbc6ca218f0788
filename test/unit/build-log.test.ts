import { describe, expect, it } from 'vitest';
import { BuildLog } from '../../src/sandbox/build/build-log.ts';

describe('BuildLog', () => {
  it('build log - keeps everything within the cap, in order', () => {
    const log = new BuildLog(16);
    for (const piece of ['abc', 'def', Buffer.from('ghij')]) log.add(piece);
    expect(log.text()).toBe('abcdefghij');
    expect(log.bytes).toBe(10);
  });

  it('build log - over the cap keeps the first and last halves and says how much was cut', () => {
    const log = new BuildLog(8);
    log.add('0123');
    log.add('456789');
    log.add('abcdefghij');
    log.add('XYZW');
    // 24 bytes: the first 4 and the last 4 are kept.
    expect(log.text()).toBe('0123\n[… 16 bytes cut]\nXYZW');
  });

  it('build log - a single huge chunk and many small ones give the same text', () => {
    const text = Array.from({ length: 5000 }, (_, i) => `line ${i}\n`).join('');
    const whole = new BuildLog(1024);
    whole.add(text);
    const pieces = new BuildLog(1024);
    for (let at = 0; at < text.length; at += 7) pieces.add(text.slice(at, at + 7));
    expect(pieces.text()).toBe(whole.text());
    expect(whole.text().startsWith(text.slice(0, 512))).toBe(true);
    expect(whole.text().endsWith(text.slice(-512))).toBe(true);
    expect(whole.text()).toContain(`[… ${text.length - 1024} bytes cut]`);
  });
});
