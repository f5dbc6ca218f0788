import { describe, expect, it } from 'vitest';
import type { PuzzleState } from '../../src/core/types.ts';
import type { Capability } from '../../src/protocol/messages.ts';
import { preflight, specSamples, stateSamples, verdictOf } from '../../src/referee/preflight.ts';
import { playLimitsOf } from '../../src/referee/job-source.ts';
import type { MatchConfig } from '../../src/referee/match-config.ts';
import { FakeClock } from '../helpers/fake-clock.ts';
import { ScriptedLauncher, silent } from '../helpers/scripted-link.ts';

// The check before a match exists: bots are asked what they declare, nothing is generated.

const config = (bots: string[]): MatchConfig => ({ bots, timeLimitMs: 1000, count: 1, seed: 's', maxMoves: 100, concurrency: 1 });
const upTo = (kind: Capability['kind'], maxSize?: number): Capability[] => [{ kind, ...(maxSize !== undefined ? { maxSize } : {}) }];

function harness(caps: Record<string, Capability[] | 'fails' | 'remote'>) {
  const clock = new FakeClock();
  const made: ScriptedLauncher[] = [];
  const makeLauncher = (bot: string) => {
    const c = caps[bot];
    const l = new ScriptedLauncher(bot, () => (c === 'fails' ? { fail: 'no such file' } : silent), { clock, ...(Array.isArray(c) ? { capabilities: c } : {}) });
    if (c === 'remote') Object.assign(l, { single: true });
    made.push(l);
    return l;
  };
  return { made, makeLauncher };
}

describe('preflight', () => {
  it('preflight - a spec names its class from its goal, without generating a scramble', () => {
    const s = specSamples({ kind: 'sliding', rows: 1000, cols: 1000 });
    expect(s).toMatchObject({ ok: true, value: [{ puzzleClass: 'sliding 1000x1000' }] });
    expect(specSamples({ kind: 'cube' } as never).ok).toBe(false);
  });

  it('preflight - explicit scrambles give one sample per class, the largest of each', () => {
    const a: PuzzleState = { kind: 'hanoi', pegs: 3, start: 'AB', goal: 'CC' };
    const b: PuzzleState = { kind: 'swaps', rows: 1, cols: 2, tiles: [2, 1] };
    expect(stateSamples([a, b, a]).map((s) => s.puzzleClass)).toEqual(['hanoi 2', 'swaps 1x2']);
  });

  it('preflight - refuses when the only bot declines the class, naming the bot, the class and the reason', async () => {
    const h = harness({ dijkstra: upTo('sliding', 3) });
    const samples = specSamples({ kind: 'sliding', rows: 1000, cols: 1000 });
    if (!samples.ok) throw new Error(samples.reason);
    const p = await preflight(config(['dijkstra']), samples.value, h.makeLauncher);
    const v = verdictOf(p, ['dijkstra'], samples.value);
    expect(v).toMatchObject({ ok: false, code: 'unplayable' });
    expect(!v.ok && v.reason).toMatch(/^no bot can play this match: dijkstra declines sliding 1000x1000 \(bot declared sliding up to size 3; this scramble has size 1000 \(sliding 1000x1000\)\)$/);
    await p.dispose();
    expect(h.made[0].links[0].closed).toBe(true);
  });

  it('preflight - two bots where one declines: no refusal, the decline is returned to warn about', async () => {
    const h = harness({ small: upTo('sliding', 5), big: upTo('sliding') });
    const samples = specSamples({ kind: 'sliding', rows: 6, cols: 6 });
    if (!samples.ok) throw new Error(samples.reason);
    const p = await preflight(config(['small', 'big']), samples.value, h.makeLauncher);
    expect(verdictOf(p, ['small', 'big'], samples.value)).toEqual({ ok: true, value: [{ bot: 'small', puzzleClass: 'sliding 6x6', reason: expect.stringMatching(/up to size 5; this scramble has size 6/) }] });
    await p.dispose();
  });

  it('preflight - refuses when every bot declines, another kind or a size each', async () => {
    const h = harness({ hanoi: upTo('hanoi'), small: upTo('sliding', 3) });
    const samples = specSamples({ kind: 'sliding', rows: 4, cols: 4 });
    if (!samples.ok) throw new Error(samples.reason);
    const p = await preflight(config(['hanoi', 'small']), samples.value, h.makeLauncher);
    const v = verdictOf(p, ['hanoi', 'small'], samples.value);
    expect(!v.ok && v.reason).toMatch(/hanoi declines sliding 4x4 \(bot declared no capability for sliding\); small declines sliding 4x4/);
    await p.dispose();
  });

  it('preflight - a bot that cannot start or a remote bot is unknown, so the match is not refused on their behalf', async () => {
    const h = harness({ broken: 'fails', far: 'remote', small: upTo('sliding', 9) });
    const samples = specSamples({ kind: 'sliding', rows: 4, cols: 4 });
    if (!samples.ok) throw new Error(samples.reason);
    const p = await preflight(config(['broken', 'far', 'small']), samples.value, h.makeLauncher);
    expect(p.unknown).toEqual(['broken', 'far']);
    expect(verdictOf(p, ['broken', 'far', 'small'], samples.value).ok).toBe(true);
    // The remote bot was never awaited: its launcher was let go at once.
    expect(h.made.find((l) => l.name === 'far')!.connects).toBe(0);
    await p.dispose();
  });

  it('preflight - the first worker takes over the checked connection; other workers start their own', async () => {
    const h = harness({ a: upTo('sliding') });
    const samples = stateSamples([{ kind: 'sliding', rows: 2, cols: 2, tiles: [1, 2, 0, 3] }]);
    const p = await preflight(config(['a']), samples, h.makeLauncher);
    const probed = h.made[0];
    // The launch options the match's first player asks with: its jobs' limits, as the preflight's.
    const opts = { ...playLimitsOf(config(['a'])), player: 0 };
    const first = p.makeLauncher('a', opts);
    const link = await first.connect();
    expect(link.ok && link.value).toBe(probed.links[0]);
    expect(probed.connects).toBe(1);
    // A restart after a crash starts a fresh bot through the same launcher.
    await first.connect();
    expect(probed.connects).toBe(2);
    p.makeLauncher('a', { ...opts, player: 1 });
    expect(h.made).toHaveLength(2);
    await p.dispose();
    expect(probed.disposed).toBe(false);
    await first.dispose();
    expect(probed.disposed).toBe(true);
  });
});
