import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { takeUid, type UidSlot } from '../../src/sandbox/limits/uid-pool.ts';

const locks = mkdtempSync(join(tmpdir(), 'arena-uid-locks-'));
afterAll(() => rmSync(locks, { recursive: true, force: true }));
beforeEach(() => {
  process.env.ARENA_UID_LOCKS = locks;
  rmSync(locks, { recursive: true, force: true });
});

const slot = (s: UidSlot | string): UidSlot => {
  if (typeof s === 'string') throw new Error(s);
  return s;
};
/** A pid that is certainly gone: a child that has exited and been reaped. */
const deadPid = (): number => Number(spawnSync('sh', ['-c', 'echo $$'], { encoding: 'utf8' }).stdout.trim());

describe('uid pool', () => {
  it('uid pool - running bots get distinct uids of the pool, each locked with the taker\'s pid, given back on release', () => {
    const pool = { first: 61000, size: 3 };
    const taken = [slot(takeUid(pool)), slot(takeUid(pool)), slot(takeUid(pool))];
    expect(new Set(taken.map((t) => t.uid)).size).toBe(3);
    for (const t of taken) {
      expect(t.uid).toBeGreaterThanOrEqual(61000);
      expect(t.uid).toBeLessThan(61003);
      expect(t.gid).toBe(t.uid);
      expect(readFileSync(join(locks, String(t.uid)), 'utf8').trim()).toBe(String(process.pid));
    }
    expect(takeUid(pool)).toBe('every uid of the pool 61000-61002 is held by a running bot');
    taken[1]!.release();
    taken[1]!.release();
    expect(existsSync(join(locks, String(taken[1]!.uid)))).toBe(false);
    expect(slot(takeUid(pool)).uid).toBe(taken[1]!.uid);
  });

  it('uid pool - a slot another live referee holds is never taken; one whose referee is gone is taken over', () => {
    const pool = { first: 61010, size: 2 };
    takeUid({ first: 0, size: 0 }); // makes the folder
    writeFileSync(join(locks, '61010'), `${process.ppid}\n`);
    writeFileSync(join(locks, '61011'), `${deadPid()}\n`);
    const got = slot(takeUid(pool));
    expect(got.uid).toBe(61011);
    expect(readFileSync(join(locks, '61011'), 'utf8').trim()).toBe(String(process.pid));
    expect(takeUid(pool)).toMatch(/is held by a running bot$/);
    got.release();
    // The live referee's lock is untouched.
    expect(readFileSync(join(locks, '61010'), 'utf8').trim()).toBe(String(process.ppid));
  });
});
