import { describe, expect, it } from 'vitest';
import { cpuBetween, oncePerTurn } from '../../src/transport/process/cpu-meter.ts';

type Sample = Parameters<typeof cpuBetween>[0];
type Proc = Sample extends Map<number, infer P> ? P : never;

const MS = 1e6; // ns
const TICK = 10 * MS;
/** A process: start time, parent, thread runtimes (ns; null = schedstat unreadable), own and children's ticks. */
const proc = (startTime: number, ppid: number, threads: Record<number, number> | null, ticks: number, childTicks = 0): Proc => ({
  startTime,
  ppid,
  threads: threads ? new Map(Object.entries(threads).map(([t, v]) => [Number(t), v])) : undefined,
  ticks,
  childTicks,
});
const tree = (...entries: Array<[number, Proc]>): Sample => new Map(entries);

describe('cpuBetween', () => {
  it('counts the exact runtime of each thread since the last read, below the 10 ms ticks', () => {
    const before = tree([100, proc(7, 1, { 100: 50 * MS, 101: 3 * MS }, 5)]);
    const now = tree([100, proc(7, 1, { 100: 53.25 * MS, 101: 3.5 * MS }, 5)]);
    expect(cpuBetween(before, now)).toBeCloseTo(3.75 * MS, 0);
  });

  it('counts a thread or a process that is new since the last read whole', () => {
    const before = tree([100, proc(7, 1, { 100: 50 * MS }, 5)]);
    const now = tree([100, proc(7, 1, { 100: 51 * MS, 102: 4 * MS }, 5)], [200, proc(9, 100, { 200: 30 * MS }, 3)]);
    expect(cpuBetween(before, now)).toBeCloseTo(35 * MS, 0);
    // The first read of a meter: everything the tree has used.
    expect(cpuBetween(new Map(), now)).toBeCloseTo(85 * MS, 0);
  });

  it('takes the process ticks when they grew clearly more than its live threads: threads that ended meanwhile', () => {
    const before = tree([100, proc(7, 1, { 100: 50 * MS }, 5)]);
    // Two workers ran 300 ms each and ended; the main thread only 2 ms.
    const now = tree([100, proc(7, 1, { 100: 52 * MS }, 5 + 60)]);
    expect(cpuBetween(before, now)).toBe(60 * TICK);
    // Within two ticks of the threads' figure it is truncation, and the exact figure stands.
    const close = tree([100, proc(7, 1, { 100: 62 * MS }, 5 + 2)]);
    expect(cpuBetween(before, close)).toBeCloseTo(12 * MS, 0);
  });

  it('counts children waited for through cutime, without counting twice what was already read of them', () => {
    const before = tree([100, proc(7, 1, { 100: 50 * MS }, 5)], [200, proc(9, 100, { 200: 100 * MS }, 10)]);
    // The child ran 150 ms more, exited, and was waited for: its 25 ticks moved into the parent's cutime.
    const now = tree([100, proc(7, 1, { 100: 50 * MS }, 5, 25)]);
    expect(cpuBetween(before, now)).toBe(15 * TICK);
  });

  it('treats a reused pid (another start time) as a new process, and falls back to ticks without schedstat', () => {
    const before = tree([100, proc(7, 1, { 100: 50 * MS }, 5)]);
    expect(cpuBetween(before, tree([100, proc(8, 1, { 100: 4 * MS }, 0)]))).toBeCloseTo(4 * MS, 0);
    const noSchedstat = tree([100, proc(7, 1, null, 9)]);
    expect(cpuBetween(tree([100, proc(7, 1, null, 5)]), noSchedstat)).toBe(4 * TICK);
  });
});

describe('oncePerTurn', () => {
  it('cpu meter - read once per turn of the event loop: the end of one solve and the start of the next share a reading', async () => {
    let reads = 0;
    const meter = oncePerTurn({ read: () => ++reads * 1.5 });
    expect([meter.read(), meter.read(), meter.read()]).toEqual([1.5, 1.5, 1.5]);
    expect(reads).toBe(1);
    await new Promise((r) => setImmediate(r));
    expect(meter.read()).toBe(3);
    expect(meter.read()).toBe(3);
    expect(reads).toBe(2);
    // A reading that found the bot gone is held for the turn too.
    const gone = oncePerTurn({ read: () => undefined });
    expect([gone.read(), gone.read()]).toEqual([undefined, undefined]);
  });
});
