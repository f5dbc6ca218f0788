import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { prepareMatch, type StartMatchOptions } from '../../src/app/matches/matches.ts';
import { parseMatchConfig } from '../../src/referee/match-config.ts';

// Old databases must still load: these configs are the exact JSON the code before the settings schema
// stored (written by its prepareMatch), plus one from before the memory limit and the warm-up existed.

const TOWERS = resolve(import.meta.dirname, '../../matches/hanoi-towers.jsonl');

/** Stored by the code before the settings schema, as the database's JSON column holds it. */
const STORED: ReadonlyArray<[string, string]> = [
  [
    'every setting given',
    '{"bots":["ida-star","constructive"],"spec":{"kind":"sliding","rows":4,"cols":4},"count":300,"seed":"15","walk":40,"timeLimitMs":60000,"maxMoves":1000,"concurrency":2,"marginMs":20,"scoreBy":"cpu","sprt":{"elo0":0,"elo1":5,"alpha":0.05,"beta":0.05,"model":"normalized"},"memoryLimitBytes":536870912,"affinity":true,"unconfined":true,"warmUp":false}',
  ],
  ['the defaults', '{"bots":["hanoi-recursive"],"spec":{"kind":"hanoi","discs":12,"randomGoal":true},"count":20,"seed":"12","timeLimitMs":10000,"maxMoves":50000000,"concurrency":1,"memoryLimitBytes":2147483648,"warmUp":true}'],
  ['a scramble file', `{"bots":["hanoi-recursive","hanoi-iterative"],"count":6,"seed":"x","scrambleFile":${JSON.stringify(TOWERS)},"timeLimitMs":10000,"maxMoves":50000000,"concurrency":1,"memoryLimitBytes":2147483648,"warmUp":true}`],
  ['before the memory limit and the warm-up', '{"bots":["a","b"],"spec":{"kind":"sliding","rows":3,"cols":3},"count":5,"seed":"7","timeLimitMs":1000,"maxMoves":100,"concurrency":1}'],
];

/** The start options that made the first three, as the match service took them then. */
const STARTED: ReadonlyArray<StartMatchOptions> = [
  {
    bots: ['ida-star', 'constructive'],
    scrambles: { spec: { kind: 'sliding', rows: 4, cols: 4 }, count: 300, walk: 40 },
    seed: '15',
    timeLimitMs: 60000,
    maxMoves: 1000,
    concurrency: 2,
    marginMs: 20,
    scoreBy: 'cpu',
    sprt: { elo0: 0, elo1: 5, alpha: 0.05, beta: 0.05, model: 'normalized' },
    memoryLimitBytes: 512 * 2 ** 20,
    affinity: true,
    warmUp: false,
    unconfined: true,
  },
  { bots: ['hanoi-recursive'], scrambles: { spec: { kind: 'hanoi', discs: 12, randomGoal: true }, count: 20 }, seed: '12', timeLimitMs: 10000, maxMoves: 50000000, concurrency: 1, memoryLimitBytes: 2 ** 31 },
  { bots: ['hanoi-recursive', 'hanoi-iterative'], scrambles: { file: TOWERS }, seed: 'x', timeLimitMs: 10000, maxMoves: 50000000, concurrency: 1, memoryLimitBytes: 2 ** 31 },
];

describe('stored config compatibility', () => {
  it.each(STORED)('parseMatchConfig - a config stored before the settings schema still parses, unchanged (%s)', (_name, json) => {
    expect(parseMatchConfig(JSON.parse(json))).toEqual({ ok: true, value: JSON.parse(json) });
  });

  it('prepareMatch - stores the same JSON, byte for byte, as the code before the settings schema, plus the disk budget and pinning', () => {
    // The settings added or turned since: --disk-budget (default 256m) is stored after the memory limit, and
    // pinning, on by default since --no-affinity, after it (where the match did not ask for it already).
    const withDisk = (json: string) =>
      json.replace(/("memoryLimitBytes":\d+,)/, json.includes('"affinity"') ? '$1"diskBudgetBytes":268435456,' : '$1"diskBudgetBytes":268435456,"affinity":true,');
    STARTED.forEach((o, i) => {
      const prepared = prepareMatch(o);
      expect(prepared.ok && JSON.stringify(prepared.value.config)).toBe(withDisk(STORED[i]![1]));
    });
  });

  it('parseMatchConfig - a config stored by the current code parses back to itself', () => {
    const prepared = prepareMatch({ bots: ['a', 'b'], scrambles: { spec: { kind: 'swaps', rows: 3, cols: 3 }, count: 4 }, scoreBy: 'cpu', marginMs: 7 });
    if (!prepared.ok) throw new Error(prepared.reason);
    const stored = JSON.stringify(prepared.value.config);
    expect(parseMatchConfig(JSON.parse(stored))).toEqual({ ok: true, value: prepared.value.config });
    expect(prepared.value.config).toMatchObject({ count: 4, timeLimitMs: 10_000, maxMoves: 50_000_000, concurrency: 1, warmUp: true, scoreBy: 'cpu', marginMs: 7 });
    expect(typeof prepared.value.config.seed).toBe('string');
  });
});
