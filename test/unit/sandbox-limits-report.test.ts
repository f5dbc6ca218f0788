import { describe, expect, it } from 'vitest';
import { limitsReport, machineLimits } from '../../src/sandbox/probe.ts';

const groups = { memory: { version: 1 as const, dir: '/m' }, cpuset: { version: 2 as const, dir: '/c' } };

describe('limitsReport', () => {
  it('limitsReport - root with control groups: every limit enforced by the kernel, nothing left open', () => {
    const r = limitsReport({ root: true, groups, userFilter: true });
    expect(r.open).toEqual([]);
    expect(r.enforced.join('\n')).toMatch(/^memory: a control group per bot \(cgroup v1\)/m);
    expect(r.enforced.join('\n')).toMatch(/cpuset per bot \(cgroup v2\), which the bot cannot widen/);
    expect(r.enforced.join('\n')).toMatch(/a uid of its own per running bot \(60000-60999\)/);
    expect(r.enforced.join('\n')).toMatch(/no user namespace inside the sandbox \(a seccomp filter\)/);
    expect(r.enforced.join('\n')).toMatch(/^disk: scratch .* one tmpfs of the disk budget per bot/m);
  });

  it('limitsReport - without root or control groups: says memory is only rlimits, what that leaves open, and the rest', () => {
    const r = limitsReport({ root: false, groups: {}, userFilter: true });
    expect(r.open.join('\n')).toMatch(/^memory: only RLIMIT_DATA .* a memfd, tmpfs files and shared memory are not counted/m);
    expect(r.open.join('\n')).toMatch(/sched_setaffinity only, which a bot can widen/);
    expect(r.open.join('\n')).toMatch(/every bot runs as your own uid/);
    expect(r.open.join('\n')).toMatch(/the cache folder is bounded only by the file-size limit/);
    expect(r.enforced).toEqual(['no user namespace inside the sandbox (--disable-userns)']);
  });

  it('limitsReport - root on an architecture without a known filter: user namespaces are named as open', () => {
    expect(limitsReport({ root: true, groups, userFilter: false }).open).toEqual([expect.stringMatching(/^user namespaces inside the sandbox: no seccomp filter is known/)]);
  });

  it.runIf(process.platform === 'linux' && process.getuid?.() === 0 && process.env.CI === 'true')('limitsReport - this CI machine (root, cgroup v1): nothing left open', () => {
    expect(machineLimits().open).toEqual([]);
  });
});
