/**
 * The 60 s rule of a kept bot (link-keeper.ts) holds when the next game takes it, not only when its match
 * ended: a bot can burn CPU while it is kept (found by a hostile review). Real processes: a stdio bot that
 * says `reuse` burns CPU on its own after it has been parked; the launcher's CPU budget for keeping is made
 * small so the test is quick.
 */
import { mkdtempSync, copyFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LinkKeeper, mayKeep } from '../../src/referee/link-keeper.ts';
import { WarmUps } from '../../src/referee/warm-up.ts';
import { createProcessLauncher } from '../../src/transport/process/process-launcher.ts';
import { systemClock } from '../../src/transport/system-clock.ts';
import { startArenaServer, type ArenaServer } from '../../src/transport/ws-server.ts';
import { ROOT, waitFor } from './helpers.ts';

const BUDGET_MS = 1_000;
const BURN_MS = 2_500;

let server: ArenaServer;
let dir: string;
beforeAll(async () => {
  server = await startArenaServer({ authenticate: () => undefined });
  dir = mkdtempSync(join(tmpdir(), 'arena-keep-cpu-'));
  copyFileSync(join(ROOT, 'test/fixtures/reuse/idle-burner.mjs'), join(dir, 'bot.mjs'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.runIf(process.platform === 'linux')('link keeper e2e - a kept bot and its CPU budget', () => {
  it('LinkKeeper - does not hand over a bot that used more CPU while kept than a kept bot may have', { timeout: 120_000 }, async () => {
    const base = createProcessLauncher({ name: 'burner', command: process.execPath, args: ['bot.mjs', String(BURN_MS)], cwd: dir, server, stdio: true });
    const launcher = { ...base, reuse: { launch: 'burner-launch', cpuMs: BUDGET_MS } };
    const got = await launcher.connect();
    expect(got.ok).toBe(true);
    if (!got.ok) return;
    const link = got.value;
    // Its match ends now: well within the budget, so it is kept.
    expect(mayKeep(launcher, link, false)).toBe(true);
    const keeper = new LinkKeeper(systemClock, 60_000);
    keeper.park({ launcher, link, warmUps: new WarmUps() });
    try {
      // While kept, it burns past the budget on its own (CPU time: does not depend on the machine's load).
      expect(await waitFor(() => (link.cpuMs?.() ?? 0) > BUDGET_MS + 500, 60_000)).toBe(true);
      expect(link.closed).toBe(false);
      // The next game asks for it: a fresh start's backstop would cover the game, this one's no longer does.
      const taken = keeper.take('burner-launch', 'burner');
      if (taken) await launcher.dispose();
      expect(taken).toBeUndefined();
    } finally {
      await keeper.closeAll('test over');
      await launcher.dispose();
    }
  });
});
