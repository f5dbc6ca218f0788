import { describe, expect, it } from 'vitest';
import { ENV_WIRE_WARM_UP, warmUpWire } from '../../src/sdk/wire-warm-up.ts';

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
