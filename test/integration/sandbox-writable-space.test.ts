/**
 * A bot's writable space on the real machine (as root): a tmpfs of exactly its budget holding its scratch
 * and its cache, the cache copied in for its uid and written back without following a link.
 */
import { existsSync, lstatSync, mkdtempSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cacheOf, clearCache, openSpace } from '../../src/sandbox/limits/writable-space.ts';
import { createBotGroup, groupSupport } from '../../src/sandbox/limits/bot-cgroup.ts';

const root = process.getuid?.() === 0;
const MiB = 1024 * 1024;
const caches = mkdtempSync(join(tmpdir(), 'arena-space-caches-'));
process.env.ARENA_BOT_CACHE = caches;
afterAll(() => rmSync(caches, { recursive: true, force: true }));

describe.runIf(process.platform === 'linux' && root)('writable space (root)', () => {
  it('writable space - scratch and cache share one budget the kernel enforces; the cache comes back for the next start, links as links', () => {
    const user = { uid: 60999, gid: 60999 };
    const opened = openSpace('space-bot', 2 * MiB, user);
    expect(opened.ok, opened.ok ? '' : opened.reason).toBe(true);
    if (!opened.ok) return;
    const s = opened.value;
    expect(s.bounded).toBe(true);
    for (const d of [s.tmp!, s.shm!, s.cache]) expect(statSync(d).uid, d).toBe(60999);
    writeFileSync(join(s.cache, 'kept.bin'), Buffer.alloc(MiB, 7));
    symlinkSync('/etc/hostname', join(s.cache, 'link'));
    // 1 MiB is in the cache: the scratch has the other half of the budget and no more.
    expect(() => writeFileSync(join(s.tmp!, 'big'), Buffer.alloc(2 * MiB))).toThrow(/ENOSPC/);
    s.release();
    s.release();
    expect(existsSync(s.tmp!)).toBe(false);

    const host = cacheOf('space-bot');
    expect(readFileSync(join(host, 'kept.bin')).length).toBe(MiB);
    expect(lstatSync(join(host, 'link')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(host, 'link'))).toBe('/etc/hostname');

    const again = openSpace('space-bot', 2 * MiB, { uid: 60998, gid: 60998 });
    expect(again.ok).toBe(true);
    if (!again.ok) return;
    expect(statSync(join(again.value.cache, 'kept.bin')).uid).toBe(60998);
    // A sparse file longer than the budget: its cache is not written back (the old one stays).
    truncateSync(join(again.value.cache, 'kept.bin'), 64 * MiB);
    again.value.release();
    expect(statSync(join(host, 'kept.bin')).size).toBe(MiB);

    const cleared = clearCache('space-bot');
    expect(cleared).toEqual({ ok: true, value: { folder: host, bytes: MiB } });
    expect(existsSync(host)).toBe(false);
  });

  it('writable space - a bot name is one folder name: no way out of the caches folder', () => {
    expect(cacheOf('..')).toBe(join(caches, '%2E%2E'));
    expect(cacheOf('a/b')).toBe(join(caches, 'a%2Fb'));
  });

  it.runIf(groupSupport().memory !== undefined)('bot control group - memory limit and cpuset set before any process joins, removed when asked', async () => {
    const g = createBotGroup({ memoryBytes: 64 * MiB, cpus: '0' });
    expect(typeof g).toBe('object');
    if (!g || typeof g === 'string') return;
    const dirs = g.procs.map((p) => join(p, '..'));
    const memory = dirs.find((d) => existsSync(join(d, 'memory.limit_in_bytes')) || existsSync(join(d, 'memory.max')))!;
    const limit = existsSync(join(memory, 'memory.limit_in_bytes')) ? 'memory.limit_in_bytes' : 'memory.max';
    expect(readFileSync(join(memory, limit), 'utf8').trim()).toBe(String(64 * MiB));
    const cpuset = dirs.find((d) => existsSync(join(d, 'cpuset.cpus')));
    if (groupSupport().cpuset) expect(readFileSync(join(cpuset!, 'cpuset.cpus'), 'utf8').trim()).toBe('0');
    expect(g.oomKills()).toBe(0);
    g.remove();
    for (let i = 0; i < 20 && dirs.some((d) => existsSync(d)); i++) await new Promise((r) => setTimeout(r, 100));
    for (const d of dirs) expect(existsSync(d), d).toBe(false);
  });
});
