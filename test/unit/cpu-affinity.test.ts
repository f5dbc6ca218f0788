import { describe, expect, it } from 'vitest';
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
