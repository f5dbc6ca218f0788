import { describe, expect, it } from 'vitest';
import { affinityNotice, affinityPlan, spareCores } from '../../src/app/launch/cores.ts';
import { affinitySupport, formatCpuList, parseCpuList, wrapWithAffinity } from '../../src/transport/process/cpu-affinity.ts';

describe('cpu affinity', () => {
  it('parseCpuList / formatCpuList - the kernel list format both ways, malformed lists refused', () => {
    expect(parseCpuList('0-3,8,10-11')).toEqual([0, 1, 2, 3, 8, 10, 11]);
    expect(parseCpuList('5')).toEqual([5]);
    expect(parseCpuList('3,1-2\n')).toEqual([1, 2, 3]);
    for (const bad of ['', 'a', '1-', '3-1', '1,,2', '0-99999999']) expect(parseCpuList(bad), bad).toBeUndefined();
    expect(formatCpuList([0, 1, 2, 3, 8, 10, 11])).toBe('0-3,8,10-11');
    expect(formatCpuList([7, 5, 6, 5])).toBe('5-7');
    for (const list of ['0', '0-1', '1,3,5', '0-2,4-6,9']) expect(formatCpuList(parseCpuList(list)!)).toBe(list);
  });

  it('affinityPlan - workers get disjoint cores while they fit, core i mod n when they do not', () => {
    expect(affinityPlan(1, [0, 1])).toEqual([[0, 1]]);
    expect(affinityPlan(2, [0, 1])).toEqual([[0], [1]]);
    expect(affinityPlan(2, [0, 1, 2, 3, 4])).toEqual([[0, 2, 4], [1, 3]]);
    expect(affinityPlan(3, [4, 6])).toEqual([[4], [6], [4]]);
    expect(affinityPlan(2, [])).toEqual([]);
    // Every core used by exactly one worker while workers ≤ cores.
    for (let n = 1; n <= 8; n++) {
      const cpus = Array.from({ length: n }, (_, i) => 2 * i);
      for (let w = 1; w <= n; w++) {
        const plan = affinityPlan(w, cpus);
        expect(plan.flat().sort((a, b) => a - b)).toEqual(cpus);
        expect(plan.every((p) => p.length >= 1)).toBe(true);
      }
    }
  });

  it('affinityPlan - a core kept back for the referee while every player still gets one of its own', () => {
    expect(affinityPlan(1, [0, 1], 1)).toEqual([[0]]);
    expect(affinityPlan(1, [0, 1, 2, 3], 1)).toEqual([[0, 1, 2]]);
    expect(affinityPlan(2, [0, 1, 2, 3], 1)).toEqual([[0, 2], [1]]);
    // No core to spare: the deal is the one without a reserve.
    expect(affinityPlan(2, [0, 1], 1)).toEqual(affinityPlan(2, [0, 1]));
    expect(affinityPlan(3, [0, 1], 1)).toEqual(affinityPlan(3, [0, 1]));
    for (let n = 1; n <= 8; n++) {
      const cpus = Array.from({ length: n }, (_, i) => i + 4);
      for (let w = 1; w <= n + 1; w++) {
        const plan = affinityPlan(w, cpus, 1);
        const spare = spareCores(plan, cpus);
        // Players get a core each and are disjoint whenever they fit; the spare core is the last one.
        expect(plan).toHaveLength(w);
        if (w < n) expect(spare).toEqual([cpus[n - 1]]);
        else expect(spare).toEqual([]);
        if (w <= n) expect(new Set(plan.flat()).size).toBe(plan.flat().length);
      }
    }
  });

  it('affinityNotice - names each worker\'s cores, and warns once when workers must share', () => {
    expect(affinityNotice([[0], [1]], [0, 1])).toBe("bots pinned to their player's cores (player 1: 0, player 2: 1)");
    expect(affinityNotice([[0]], [0, 1])).toBe("bots pinned to their player's cores (player 1: 0; the referee and the exact oracle on 1)");
    expect(affinityNotice(affinityPlan(3, [0, 1]), [0, 1])).toMatch(/^warning: --affinity with --concurrency 3 above the 2 cores .* players share cores .*\(player 1: 0, player 2: 1, player 3: 0\)$/);
  });

  it('wrapWithAffinity - taskset runs the bot itself with the list', () => {
    expect(wrapWithAffinity('/usr/bin/node', ['bot.js', '--x'], [2, 3], '/usr/bin/taskset')).toEqual({
      command: '/usr/bin/taskset',
      args: ['-c', '2-3', '/usr/bin/node', 'bot.js', '--x'],
    });
  });

  it('affinitySupport - without taskset on PATH (or off Linux) says why, so the match warns and runs unpinned', () => {
    const none = affinitySupport('/nonexistent-dir');
    expect(none.ok).toBe(false);
    if (!none.ok) expect(none.reason).toMatch(process.platform === 'linux' ? /needs taskset \(util-linux\) on PATH/ : /needs Linux/);
  });
});
