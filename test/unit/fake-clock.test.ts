import { describe, expect, it } from 'vitest';
import { FakeClock } from '../helpers/fake-clock.ts';

describe('FakeClock', () => {
  it('FakeClock - timers fire only when time is advanced, each at its due time, in due order', async () => {
    const clock = new FakeClock();
    const fired: Array<[string, number]> = [];
    clock.setTimer(30, () => fired.push(['c', clock.now()]));
    clock.setTimer(10, () => {
      fired.push(['a', clock.now()]);
      // A timer set by a timer fires in the same advance when it falls inside the window.
      clock.setTimer(5, () => fired.push(['a2', clock.now()]));
    });
    clock.setTimer(10, () => fired.push(['b', clock.now()]));
    const cancel = clock.setTimer(20, () => fired.push(['cancelled', clock.now()]));
    cancel();
    expect(fired).toEqual([]);
    await clock.advance(29);
    expect(fired).toEqual([
      ['a', 10],
      ['b', 10],
      ['a2', 15],
    ]);
    expect(clock.now()).toBe(29);
    expect(clock.pending).toBe(1);
    await clock.advance(1);
    expect(fired.at(-1)).toEqual(['c', 30]);
    expect(clock.pending).toBe(0);
  });

  it('FakeClock - run lets promise chains between timers finish and jumps straight to the next timer', async () => {
    const clock = new FakeClock();
    const sleep = (ms: number) => new Promise<void>((r) => clock.setTimer(ms, r));
    const work = async () => {
      await sleep(1000);
      await Promise.resolve();
      await sleep(60_000);
      return clock.now();
    };
    expect(await clock.run(work())).toBe(61_000);
  });

  it('FakeClock - run reports a promise that no timer will ever settle instead of hanging', async () => {
    const clock = new FakeClock();
    await expect(clock.run(new Promise(() => {}))).rejects.toThrow(/no timer set/);
  });
});
