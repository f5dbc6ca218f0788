import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPreset } from '../../src/app/matches/presets.ts';
import { parseByteSize, parseDuration, unitGuesses } from '../../src/core/units.ts';
import { durationFlag, secondsFlag } from '../../src/cli/parse-flags.ts';
import { readSettings } from '../../src/referee/settings/read-settings.ts';
import { byteSize } from '../../src/referee/settings/value-types.ts';

const MiB = 2 ** 20;
const TIME = { min: 1, max: 86_400_000 };
const MEMORY = { min: 16 * MiB, max: 2 ** 40 };

describe('units - durations need a unit', () => {
  it('reads ms, s, m and h, decimals too', () => {
    expect(durationFlag('time-limit', '500ms', TIME, 10_000)).toBe(500);
    expect(durationFlag('time-limit', '10s', TIME, 10_000)).toBe(10_000);
    expect(durationFlag('time-limit', '1.5 s', TIME, 10_000)).toBe(1500);
    expect(durationFlag('time-limit', '2m', TIME, 10_000)).toBe(120_000);
    expect(durationFlag('time-limit', '24h', TIME, 10_000)).toBe(86_400_000);
    expect(durationFlag('time-limit', undefined, TIME, 10_000)).toBeUndefined();
  });

  it('refuses a bare number, hinting the unit it most likely meant', () => {
    expect(() => durationFlag('time-limit', '10', TIME, 10_000)).toThrow('--time-limit needs a unit (ms, s, m or h), got "10": did you mean 10s?');
    expect(() => durationFlag('time-limit', '5000', TIME, 10_000)).toThrow('did you mean 5000ms?');
    // As far from 10 s either way: both are offered, the nearer first.
    expect(() => durationFlag('time-limit', '300', TIME, 10_000)).toThrow('did you mean 300s or 300ms?');
    // A margin is usually a few milliseconds.
    expect(() => durationFlag('margin', '5', { min: 0, max: 86_400_000 }, 5)).toThrow('--margin needs a unit (ms, s, m or h), got "5": did you mean 5ms?');
    expect(() => durationFlag('time-limit', '0', TIME, 10_000)).toThrow(/^--time-limit needs a unit \(ms, s, m or h\), got "0"$/);
  });

  it('keeps the range message, one per flag', () => {
    expect(() => durationFlag('time-limit', '0ms', TIME, 10_000)).toThrow('--time-limit must be from 1 ms to 86400000 ms (24 h), got "0ms"');
    expect(() => durationFlag('time-limit', '25h', TIME, 10_000)).toThrow('--time-limit must be from 1 ms to 86400000 ms (24 h), got "25h"');
    expect(() => durationFlag('time-limit', '3x', TIME, 10_000)).toThrow('--time-limit must be a duration like 500ms, 10s or 2m (units ms, s, m, h), got "3x"');
  });

  it('whole seconds for the worker\'s timers', () => {
    expect(secondsFlag('heartbeat', '5s', { min: 1, max: 3600 }, 5)).toBe(5);
    expect(secondsFlag('heartbeat', '2m', { min: 1, max: 3600 }, 5)).toBe(120);
    expect(() => secondsFlag('heartbeat', '1500ms', { min: 1, max: 3600 }, 5)).toThrow('--heartbeat must be whole seconds, got "1500ms"');
    expect(() => secondsFlag('heartbeat', '5', { min: 1, max: 3600 }, 5)).toThrow('--heartbeat needs a unit (ms, s, m or h), got "5": did you mean 5s?');
  });
});

describe('units - memory sizes need a unit', () => {
  const read = (text: string, min = 1, max = 2 ** 40) => byteSize('<size>', { min, max }, 2 ** 30).read(text);
  const memoryFlag = (text: string) => readSettings({ memoryLimit: text }, 'flags');

  it('reads binary units in their usual spellings', () => {
    expect(read('512m')).toEqual({ ok: true, value: 512 * MiB });
    expect(read('1.5GiB')).toEqual({ ok: true, value: 1.5 * 1024 * MiB });
    expect(read('2G')).toEqual({ ok: true, value: 2048 * MiB });
    expect(read('1048576b')).toEqual({ ok: true, value: MiB });
    expect(memoryFlag('2g')).toEqual({ ok: true, value: { memoryLimitBytes: 2 ** 31 } });
  });

  it('refuses a bare number with the likely unit, other units and sizes out of range with one line', () => {
    expect(memoryFlag('512')).toMatchObject({ ok: false, reason: '--memory-limit needs a unit (k, m, g or t), got "512": did you mean 512m?' });
    expect(memoryFlag('2')).toMatchObject({ ok: false, reason: expect.stringContaining('did you mean 2g?') });
    expect(memoryFlag('5 bananas')).toMatchObject({ ok: false, reason: '--memory-limit must be a size like 512m, 2g or 1.5GiB, got "5 bananas"' });
    expect(memoryFlag('1m')).toMatchObject({ ok: false, reason: '--memory-limit must be from 16 MiB to 1048576 MiB, got 1 MiB' });
    expect(read('1m', MEMORY.min, MEMORY.max)).toMatchObject({ ok: false, code: 'bad-size' });
  });
});

describe('units - unitGuesses', () => {
  it('offers only readings in range, nearest the usual value first, at most two', () => {
    const r = { min: 16 * MiB, max: 2 ** 40, typical: 2 ** 30 };
    const units = { k: 2 ** 10, m: MiB, g: 2 ** 30 };
    expect(unitGuesses(2, units, ['m', 'g', 'k'], r)).toEqual(['2g']);
    expect(unitGuesses(64, units, ['m', 'g', 'k'], r)).toEqual(['64m', '64g']);
    expect(unitGuesses(10 ** 10, units, ['m', 'g', 'k'], r)).toEqual([]);
  });

  it('parse functions are Results, never throws', () => {
    expect(parseDuration('10', { ...TIME, typical: 10_000 })).toMatchObject({ ok: false, code: 'no-unit' });
    expect(parseByteSize('x', { ...MEMORY, typical: 2 ** 30 })).toMatchObject({ ok: false, code: 'bad-size' });
  });
});

describe('units - presets', () => {
  const root = resolve(import.meta.dirname, '../..');

  it('every shipped preset spells its times with a unit and loads', () => {
    const names = readdirSync(join(root, 'matches')).filter((f) => f.endsWith('.json'));
    expect(names.length).toBeGreaterThan(3);
    for (const f of names) expect(loadPreset(f.replace(/\.json$/, ''), root), f).toMatchObject({ ok: true });
  });
});
