import { describe, expect, it } from 'vitest';
import type { BotMessage, RefereeMessage } from '../../src/protocol/messages.ts';
import type { Channel } from '../../src/sdk/channel.ts';
import { serveBot } from '../../src/sdk/serve.ts';
import type { BotDefinition } from '../../src/sdk/types.ts';
import { wireWarmUpWithin } from '../../src/sdk/warm-up.ts';
import { ENV_WIRE_WARM_UP, warmUpWire, withWireWarmUp } from '../../src/sdk/wire-warm-up.ts';

const handles = (): string[] => (process as unknown as { _getActiveHandles(): object[] })._getActiveHandles().map((h) => h.constructor.name);

describe('the SDK wire warm-up', () => {
  it('plays its solves over a loopback WebSocket and leaves no server or socket behind', async () => {
    const before = handles().filter((h) => h === 'Server').length;
    const t0 = performance.now();
    await warmUpWire(50);
    expect(performance.now() - t0).toBeLessThan(10_000);
    // The sockets close a moment after the server; nothing of it may keep a bot's process alive.
    await new Promise((r) => setTimeout(r, 200));
    expect(handles().filter((h) => h === 'Server').length).toBe(before);
  });

  it(`is skipped with ${ENV_WIRE_WARM_UP}=0`, async () => {
    const saved = process.env[ENV_WIRE_WARM_UP];
    process.env[ENV_WIRE_WARM_UP] = '0';
    try {
      const t0 = performance.now();
      await warmUpWire();
      expect(performance.now() - t0).toBeLessThan(50);
    } finally {
      if (saved === undefined) delete process.env[ENV_WIRE_WARM_UP];
      else process.env[ENV_WIRE_WARM_UP] = saved;
    }
  });
});

describe('withWireWarmUp - the SDK warm-up in the untimed prepare', () => {
  /** A scripted referee over an in-memory channel, recording what happens in which order. */
  function session(def: BotDefinition, events: string[]) {
    let onMessage: (text: string) => void = () => undefined;
    const sent: BotMessage[] = [];
    const waiters: Array<() => void> = [];
    const channel: Channel = {
      send: async (m) => {
        events.push(`sent ${m.type}`);
        sent.push(m);
        for (const w of waiters.splice(0)) w();
      },
      onMessage: (l) => void (onMessage = l),
      onClose: () => undefined,
      close: () => undefined,
    };
    const done = serveBot(def, channel, () => undefined);
    return {
      sent,
      done,
      deliver: (m: RefereeMessage) => onMessage(JSON.stringify(m)),
      until: (type: string, n = 1) =>
        new Promise<void>((resolve) => {
          const check = (): void => (sent.filter((m) => m.type === type).length >= n ? resolve() : void waiters.push(check));
          check();
        }),
    };
  }
  const tiles = { kind: 'sliding' as const, rows: 2, cols: 2, tiles: [1, 2, 0, 3] };
  const prepare = (id: string, puzzleClass = 'sliding 2x2'): RefereeMessage => ({ type: 'prepare', id, kind: 'sliding', puzzleClass, timeLimitMs: 60_000 });

  it('sends the hello before any warm-up, declares prepare, and warms up once, in the first prepare, before any solve', async () => {
    const events: string[] = [];
    const warmUp = async (n: number): Promise<void> => {
      events.push(`warm-up ${n} start`);
      await new Promise((r) => setTimeout(r, 30));
      events.push(`warm-up end`);
    };
    const def: BotDefinition = {
      name: 'w',
      version: '1',
      capabilities: [{ kind: 'sliding' }],
      solve: () => {
        events.push('solve');
        return { moves: 'L' };
      },
    };
    const s = session(withWireWarmUp(def, 7, warmUp), events);
    await s.until('hello');
    expect(events).toEqual(['sent hello']);
    const hello = s.sent[0] as Extract<BotMessage, { type: 'hello' }>;
    expect(hello.capabilities.every((c) => c.prepare === true)).toBe(true);
    s.deliver(prepare('p1'));
    s.deliver({ type: 'solve', id: 's1', puzzle: tiles, timeLimitMs: 1000, maxMoves: 100 });
    await s.until('moves');
    s.deliver(prepare('p2', 'sliding 3x3'));
    await s.until('ready', 2);
    expect(events).toEqual(['sent hello', 'warm-up 7 start', 'warm-up end', 'sent ready', 'solve', 'sent moves', 'sent ready']);
    s.deliver({ type: 'bye' });
    await s.done;
  });

  /** A bot that records its own prepare in `events`, with `more` of a definition. */
  const recording = (events: string[], more: Partial<BotDefinition> = {}): BotDefinition => ({
    name: 'w',
    version: '1',
    capabilities: [{ kind: 'sliding' }],
    solve: () => ({ moves: 'L' }),
    prepare: (r) => void events.push(`own prepare ${r.puzzleClass}`),
    ...more,
  });

  it("runs the bot's own prepare after the warm-up, and leaves a bot alone when the warm-up is off", async () => {
    const events: string[] = [];
    const def = recording(events);
    const s = session(withWireWarmUp(def, 5, async () => void events.push('warm-up')), events);
    s.deliver(prepare('p1'));
    await s.until('ready');
    expect(events).toEqual(['sent hello', 'warm-up', 'own prepare sliding 2x2', 'sent ready']);
    const plain: BotDefinition = { name: 'p', version: '1', capabilities: [{ kind: 'sliding' }], solve: () => ({ moves: 'L' }) };
    expect(withWireWarmUp(plain, 0)).toBe(plain);
    s.deliver({ type: 'bye' });
    await s.done;
  });

  it('skips the warm-up before a class the bot says no to, and runs it once in the first prepare of a class it wants', async () => {
    const events: string[] = [];
    const def = recording(events, { wireWarmUp: wireWarmUpWithin(3) });
    const s = session(withWireWarmUp(def, 5, async () => void events.push('warm-up')), events);
    s.deliver(prepare('p1', 'sliding 4x4'));
    await s.until('ready');
    s.deliver(prepare('p2', 'sliding 3x3'));
    await s.until('ready', 2);
    s.deliver(prepare('p3', 'sliding 2x3'));
    await s.until('ready', 3);
    expect(events).toEqual(['sent hello', 'own prepare sliding 4x4', 'sent ready', 'warm-up', 'own prepare sliding 3x3', 'sent ready', 'own prepare sliding 2x3', 'sent ready']);
    s.deliver({ type: 'bye' });
    await s.done;
  });
});

describe('wireWarmUpWithin - which classes get the SDK wire warm-up', () => {
  it('says yes up to the size (the larger side of a sliding board, discs of hanoi), no beyond, yes to what it cannot read', () => {
    const upTo3 = wireWarmUpWithin(3);
    expect(['sliding 2x2', 'sliding 3x3', 'sliding 2x3', 'sliding 3x2'].map(upTo3)).toEqual([true, true, true, true]);
    expect(['sliding 4x4', 'sliding 3x4', 'sliding 5x5', 'sliding 2x4'].map(upTo3)).toEqual([false, false, false, false]);
    expect(['hanoi 3', 'hanoi 4', 'hanoi 3 random-goal'].map(upTo3)).toEqual([true, false, true]);
    expect(['', 'chess 8x8', 'sliding big'].map(upTo3)).toEqual([true, true, true]);
  });
});
