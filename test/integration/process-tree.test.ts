/**
 * A sandboxed bot's processes are found from its root alone: real process trees (children that clear their
 * environment, grandchildren, orphans adopted inside the tree), walked without a scan of /proc and without
 * reading any process's environment; the watch and the sweep of a rooted bot do the same. Linux only.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as procFs from '../../src/transport/process/proc-fs.ts';
import { checkNow, watchBot } from '../../src/transport/process/process-watch.ts';
import { sweepKnown } from '../../src/transport/process/process-sweep.ts';
import { processTree, TREE_WALK } from '../../src/transport/process/process-tree.ts';

// Count every scan of /proc and every environment read, while the real files are read.
vi.mock('../../src/transport/process/proc-fs.ts', async (original) => {
  const real = await original<typeof import('../../src/transport/process/proc-fs.ts')>();
  return { ...real, listPids: vi.fn(real.listPids), readEnviron: vi.fn(real.readEnviron) };
});

const MiB = 1024 * 1024;
const alive = (pid: number): boolean => {
  const st = procFs.readStat(pid);
  return st !== undefined && st.state !== 'Z';
};
const pidsIn = (file: string): number[] => (existsSync(file) ? readFileSync(file, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number) : []);
async function until(pred: () => boolean, ms = 10_000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) if (pred()) return true;
  return pred();
}

const roots: number[] = [];
/** A real tree: a root shell, a child with an empty environment that starts its own child, and a sleeper. */
async function tree(): Promise<{ root: { pid: number; startTime: number }; members: number[] }> {
  const out = join(mkdtempSync(join(tmpdir(), 'arena-tree-')), 'pids');
  const script = `env -i /bin/sh -c 'sleep 300 & echo $! >> "$1"; exec sleep 300' sh "$OUT" & echo $! >> "$OUT"; sleep 300 & echo $! >> "$OUT"; wait`;
  const child = spawn('/bin/sh', ['-c', script], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', OUT: out }, stdio: 'ignore', detached: true });
  roots.push(child.pid!);
  expect(await until(() => pidsIn(out).length === 3)).toBe(true);
  return { root: { pid: child.pid!, startTime: procFs.readStat(child.pid!)!.startTime }, members: pidsIn(out) };
}

beforeEach(() => {
  vi.mocked(procFs.listPids).mockClear();
  vi.mocked(procFs.readEnviron).mockClear();
});
afterEach(() => {
  for (const pid of roots.splice(0)) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
});

describe.runIf(TREE_WALK)('process tree - a bot found from its root', () => {
  it('process tree - lists the root and every descendant, the one with a cleared environment too, reading no environment and scanning nothing', async () => {
    const { root, members } = await tree();
    const found = processTree(root).map((p) => p.pid);
    expect(found[0]).toBe(root.pid);
    for (const pid of members) expect(found).toContain(pid);
    expect(procFs.listPids).not.toHaveBeenCalled();
    expect(procFs.readEnviron).not.toHaveBeenCalled();
  });

  it('process tree - a root whose pid now names another process has no tree', async () => {
    const { root } = await tree();
    expect(processTree({ pid: root.pid, startTime: root.startTime + 1 })).toEqual([]);
  });

  it('process watch - a rooted (sandboxed) bot is watched by its tree: its processes counted, no /proc scan, no environment read; a breach is seen', async () => {
    const { root, members } = await tree();
    const breaches: string[] = [];
    // The root and its direct children are the sandbox's own (not counted): here the root shell and its
    // three children; only the grandchild counts, so a limit of 0 processes is breached by it.
    const watch = watchBot({ tag: 'tree-test', root, memoryBytes: 1024 * MiB, maxProcesses: 0, onBreach: (b) => breaches.push(b.kind) });
    try {
      checkNow();
      const seen = watch.members().map((p) => p.pid);
      for (const pid of [root.pid, ...members]) expect(seen).toContain(pid);
      expect(breaches).toEqual(['processes']);
      expect(procFs.listPids).not.toHaveBeenCalled();
      expect(procFs.readEnviron).not.toHaveBeenCalled();
    } finally {
      watch.stop();
    }
  });

  it('process sweep - sweepKnown kills a whole tree from its members alone, reading no environment', async () => {
    const { root, members } = await tree();
    const all = processTree(root);
    expect(sweepKnown(all)).toBeGreaterThanOrEqual(4);
    expect(await until(() => ![root.pid, ...members].some(alive))).toBe(true);
    expect(procFs.listPids).not.toHaveBeenCalled();
    expect(procFs.readEnviron).not.toHaveBeenCalled();
  });
});
