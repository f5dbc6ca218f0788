import { describe, expect, it } from 'vitest';
import type { BotLauncher, BotLink } from '../../src/protocol/link.ts';
import { LinkKeeper, mayKeep } from '../../src/referee/link-keeper.ts';
import { WarmUps } from '../../src/referee/warm-up.ts';
import { FakeClock } from '../helpers/fake-clock.ts';
import { helloFor } from '../helpers/scripted-link.ts';

/** A link whose bot says reuse (unless told not to) and has used `cpu` ms of CPU. */
function link(o: { reuse?: boolean; cpu?: number | undefined } = {}): BotLink & { byes: string[] } {
  const byes: string[] = [];
  let closed = false;
  return {
    hello: { ...helloFor('b'), ...(o.reuse === false ? {} : { reuse: true }) },
    get closed() {
      return closed;
    },
    byes,
    send: () => undefined,
    onEvent: () => () => undefined,
    cpuMs: () => ('cpu' in o ? o.cpu : 10),
    close: async (reason?: string) => {
      if (!closed) byes.push(reason ?? '');
      closed = true;
    },
  };
}

function launcher(launch = 'L', extra: Partial<BotLauncher> = {}): BotLauncher & { disposed: number } {
  const l = {
    name: launch.toLowerCase(),
    disposed: 0,
    connect: async () => ({ ok: false as const, code: 'x', reason: 'x' }),
    dispose: async () => void l.disposed++,
    reuse: { launch, cpuMs: 60_000 },
    ...extra,
  };
  return l;
}

describe('mayKeep', () => {
  it('mayKeep - keeps only an open link of a bot that said reuse, started by a launcher that names its launch, within its CPU budget', () => {
    expect(mayKeep(launcher(), link(), false)).toBe(true);
    expect(mayKeep(launcher(), link({ reuse: false }), false)).toBe(false);
    expect(mayKeep(launcher(), undefined, false)).toBe(false);
    expect(mayKeep(launcher(), link(), true)).toBe(false);
    expect(mayKeep(launcher('L', { reuse: undefined }), link(), false)).toBe(false);
    expect(mayKeep(launcher('L', { single: true }), link(), false)).toBe(false);
    expect(mayKeep(launcher(), link({ cpu: 60_001 }), false)).toBe(false);
    expect(mayKeep(launcher(), link({ cpu: undefined }), false)).toBe(false);
    const closed = link();
    void closed.close('crashed');
    expect(mayKeep(launcher(), closed, false)).toBe(false);
  });
});

describe('LinkKeeper', () => {
  it('LinkKeeper - hands a kept bot to the same launch only, once', () => {
    const keeper = new LinkKeeper(new FakeClock());
    const bot = { launcher: launcher('A'), link: link(), warmUps: new WarmUps() };
    keeper.park(bot);
    expect(keeper.peek('B')).toBeUndefined();
    expect(keeper.take('B')).toBeUndefined();
    expect(keeper.peek('A')).toBe(bot.link);
    expect(keeper.take('A')).toBe(bot);
    expect(keeper.take('A')).toBeUndefined();
    expect(bot.link.byes).toEqual([]);
  });

  it('LinkKeeper - a bot asked for under another launch (other cores) ends its kept start at once, and leaves other bots kept', async () => {
    const keeper = new LinkKeeper(new FakeClock());
    const pinnedA = { launcher: launcher('A', { name: 'x' }), link: link(), warmUps: new WarmUps() };
    const other = { launcher: launcher('B', { name: 'y' }), link: link(), warmUps: new WarmUps() };
    keeper.park(pinnedA);
    keeper.park(other);
    expect(keeper.take('A2', 'x')).toBeUndefined();
    await Promise.resolve();
    expect(pinnedA.link.byes).toEqual(['started again under another launch']);
    expect(keeper.size).toBe(1);
    expect(keeper.take('B', 'y')).toBe(other);
    expect(other.link.byes).toEqual([]);
  });

  it('LinkKeeper - a bot that used its CPU allowance while kept is neither shown to the preflight nor handed out, and is ended', async () => {
    const keeper = new LinkKeeper(new FakeClock());
    const usage = { cpu: 10 };
    const burner = { launcher: launcher('A'), link: { ...link(), cpuMs: () => usage.cpu }, warmUps: new WarmUps() };
    const byes: string[] = [];
    burner.link.close = async (reason?: string) => void byes.push(reason ?? '');
    keeper.park(burner);
    expect(keeper.peek('A')).toBe(burner.link);
    usage.cpu = 60_001;
    expect(keeper.peek('A')).toBeUndefined();
    await Promise.resolve();
    expect(byes).toEqual(['used its CPU allowance while kept']);
    expect(keeper.take('A')).toBeUndefined();
    expect(keeper.size).toBe(0);
  });

  it('LinkKeeper - ends a bot nobody takes within its idle time, and one that died while kept is not handed out', async () => {
    const clock = new FakeClock();
    const keeper = new LinkKeeper(clock, 5000);
    const idle = { launcher: launcher('A'), link: link(), warmUps: new WarmUps() };
    keeper.park(idle);
    await clock.advance(4999);
    expect(idle.link.closed).toBe(false);
    await clock.advance(1);
    expect(idle.link.byes).toEqual(['idle: no game for it']);
    expect(idle.launcher.disposed).toBe(1);
    expect(keeper.size).toBe(0);

    const dead = { launcher: launcher('B'), link: link(), warmUps: new WarmUps() };
    keeper.park(dead);
    await dead.link.close('crashed');
    expect(keeper.peek('B')).toBeUndefined();
    expect(keeper.take('B')).toBeUndefined();
    await clock.advance(0);
    expect(dead.launcher.disposed).toBe(1);
    expect(clock.pending).toBe(0);
  });

  it('LinkKeeper - a second bot of the same launch replaces the first, and closeAll ends every kept bot', async () => {
    const clock = new FakeClock();
    const keeper = new LinkKeeper(clock);
    const a = { launcher: launcher('A'), link: link(), warmUps: new WarmUps() };
    const a2 = { launcher: launcher('A'), link: link(), warmUps: new WarmUps() };
    const b = { launcher: launcher('B'), link: link(), warmUps: new WarmUps() };
    keeper.park(a);
    keeper.park(a2);
    keeper.park(b);
    await clock.advance(0);
    expect(a.link.byes).toEqual(['replaced by another start']);
    expect(keeper.size).toBe(2);
    await keeper.closeAll('the ladder stopped');
    expect([a2.link.byes, b.link.byes]).toEqual([['the ladder stopped'], ['the ladder stopped']]);
    expect([a2.launcher.disposed, b.launcher.disposed]).toEqual([1, 1]);
    expect(keeper.size).toBe(0);
    expect(clock.pending).toBe(0);
  });

  it('LinkKeeper - closeExcept ends the kept bots the next game does not name and keeps the others', async () => {
    const keeper = new LinkKeeper(new FakeClock());
    const a = { launcher: launcher('A'), link: link(), warmUps: new WarmUps() };
    const b = { launcher: launcher('B'), link: link(), warmUps: new WarmUps() };
    keeper.park(a);
    keeper.park(b);
    await keeper.closeExcept(new Set(['b', 'c']));
    expect(a.link.byes).toEqual(['not in the next game']);
    expect(b.link.closed).toBe(false);
    expect(keeper.take('B')).toBe(b);
  });
});
