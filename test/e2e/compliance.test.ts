import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCompliance } from '../../src/referee/compliance.ts';
import { systemClock } from '../../src/transport/system-clock.ts';
import { startArenaServer, type ArenaServer } from '../../src/transport/ws-server.ts';
import { fixtureLauncher } from './helpers.ts';

let server: ArenaServer;
beforeAll(async () => {
  server = await startArenaServer({ authenticate: () => undefined });
});
afterAll(async () => {
  await server.close();
});

describe('compliance - bot check', () => {
  it('passes a well-behaved bot: handshake, tiny scrambles, a cancelled request', async () => {
    const lines = await runCompliance(fixtureLauncher('instant', server), systemClock, 5_000);
    // instant declares side 3 and declines the 3x3 scramble itself (its BFS takes ≤ 6 cells): a bot's right.
    // Like every SDK bot it declares `prepare` (the SDK warms its wire there, untimed), so each class is prepared first.
    expect(lines.map((l) => l.what)).toEqual(['handshake', 'prepare sliding 2x2', 'sliding 2x2 scramble', 'prepare sliding 3x3', 'sliding 3x3 scramble', 'cancel']);
    expect(lines.every((l) => l.ok)).toBe(true);
  });

  it('says plainly what is wrong with a bot that plays illegal moves', async () => {
    const lines = await runCompliance(fixtureLauncher('illegal', server), systemClock, 5_000);
    const bad = lines.filter((l) => !l.ok);
    expect(bad.length).toBeGreaterThanOrEqual(4);
    expect(bad.some((l) => /invalid at move 0/.test(l.detail))).toBe(true);
  });

  it('reports a bot that cannot even connect', async () => {
    const lines = await runCompliance(fixtureLauncher('wrong-token', server), systemClock, 5_000);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ ok: false, what: 'handshake' });
  });
});
