/**
 * A built-in bot in the real sandbox, looked at from the referee's side through /proc: its own pid and
 * network namespaces, an unprivileged uid without capabilities (as root), the limits applied inside, an
 * environment of its own, bwrap started with an empty one, and nothing left once it is disposed. With
 * either relay (the compiled one, and the Node fallback for machines without a C compiler) it solves.
 */
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/rng.ts';
import { puzzles } from '../../src/puzzles/index.ts';
import { solveOne } from '../../src/referee/solve-one.ts';
import { groupSupport } from '../../src/sandbox/limits/bot-cgroup.ts';
import { builtinBotCommand } from '../../src/transport/process/builtin-bots.ts';
import { createProcessLauncher } from '../../src/transport/process/process-launcher.ts';
import { systemClock } from '../../src/transport/system-clock.ts';
import { startArenaServer, type ArenaServer } from '../../src/transport/ws-server.ts';
import { runFixtureAsNobody } from '../helpers/as-user.ts';
import { CAN_SANDBOX, sandboxFor } from '../helpers/sandbox.ts';
import { ROOT } from './helpers.ts';

const linux = process.platform === 'linux';
const root = process.getuid?.() === 0;
const MiB = 1024 * 1024;

const read = (path: string): string => {
  try {
    return readFileSync(path, 'latin1');
  } catch {
    return '';
  }
};

/** Every live process below `pid`, by the parent links of /proc/<pid>/stat. */
function descendants(pid: number): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = read(`/proc/${name}/stat`);
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (f[0] !== 'Z' && f[1]) parent.set(Number(name), Number(f[1]));
  }
  const out: number[] = [];
  const walk = (p: number): void => {
    for (const [child, pp] of parent) if (pp === p) out.push(child), walk(child);
  };
  walk(pid);
  return out;
}

const cmdline = (pid: number): string[] => read(`/proc/${pid}/cmdline`).split('\0').filter(Boolean);
const status = (pid: number, field: string): string => new RegExp(`^${field}:[ \\t]*(.*)$`, 'm').exec(read(`/proc/${pid}/status`))?.[1] ?? '';

let server: ArenaServer;
beforeAll(async () => {
  server = await startArenaServer({ authenticate: () => undefined });
});
afterAll(async () => {
  await server.close();
});

describe.runIf(linux && CAN_SANDBOX)('sandbox e2e - a built-in bot', () => {
  for (const relay of ['auto', 'node'] as const) {
    it(`sandbox - dijkstra over WebSocket (${relay === 'auto' ? 'compiled' : 'Node'} relay): own pid and net namespaces, unprivileged, its own environment, solves, leaves nothing`, async () => {
      const { entry, ...command } = builtinBotCommand('dijkstra', ROOT)!;
      const launcher = createProcessLauncher({
        name: 'dijkstra',
        ...command,
        server,
        startTimeoutMs: 60_000,
        limits: { memoryBytes: 512 * MiB, fileBytes: 8 * MiB },
        confine: sandboxFor(entry, { relay }),
      });
      const got = await launcher.connect();
      expect(got.ok, got.ok ? '' : got.reason).toBe(true);
      if (!got.ok) return;
      let groupDir: string | undefined;
      try {
        const tree = descendants(process.pid);
        const bot = tree.find((p) => cmdline(p)[0] === process.execPath && cmdline(p).some((a) => a === entry))!;
        expect(bot, JSON.stringify(tree.map(cmdline))).toBeDefined();
        for (const ns of ['pid', 'net', 'ipc', 'uts', 'mnt']) {
          expect(readlinkSync(`/proc/${bot}/ns/${ns}`), ns).not.toBe(readlinkSync(`/proc/self/ns/${ns}`));
        }
        if (root) {
          // A uid of its own from the pool (real, effective, saved, filesystem), and the same gid.
          const [uid, ...rest] = status(bot, 'Uid').split(/\s+/);
          expect(Number(uid)).toBeGreaterThanOrEqual(60000);
          expect(Number(uid)).toBeLessThan(61000);
          expect(rest).toEqual([uid, uid, uid]);
          expect(status(bot, 'Gid').split(/\s+/)).toEqual([uid, uid, uid, uid]);
          expect(status(bot, 'Groups')).toBe('');
        }
        for (const caps of ['CapInh', 'CapPrm', 'CapEff', 'CapBnd', 'CapAmb']) expect(status(bot, caps), caps).toBe('0000000000000000');
        expect(status(bot, 'NoNewPrivs')).toBe('1');
        // The kernel limits are set inside, on the bot itself.
        expect(read(`/proc/${bot}/limits`)).toMatch(new RegExp(`^Max data size\\s+${512 * MiB}\\s+${512 * MiB}`, 'm'));
        expect(read(`/proc/${bot}/limits`)).toMatch(new RegExp(`^Max file size\\s+${8 * MiB}\\s+${8 * MiB}`, 'm'));
        // Where the machine has a v1 memory hierarchy (as root): the bot is in a control group of its own, with its memory limit.
        const memoryGroup = /^\d+:memory:(.*)$/m.exec(read(`/proc/${bot}/cgroup`))?.[1];
        groupDir = memoryGroup !== undefined && groupSupport().memory?.version === 1 ? join('/sys/fs/cgroup/memory', memoryGroup) : undefined;
        if (root && groupDir) {
          expect(memoryGroup).toMatch(/\/puzzle-arena-bots\/\d+-\d+$/);
          expect(read(join(groupDir, 'memory.limit_in_bytes')).trim()).toBe(String(512 * MiB));
        }
        const env = read(`/proc/${bot}/environ`).split('\0').filter(Boolean).map((e) => e.split('=')[0]);
        expect(env.sort()).toEqual(['ARENA_CACHE', 'ARENA_TOKEN', 'ARENA_URL', 'HOME', 'NODE_OPTIONS', 'PATH', 'PWD']);
        // bwrap is pid 1 in the bot's namespace: it was started with nothing of the referee's environment.
        const bwraps = tree.filter((p) => cmdline(p)[0]?.endsWith('bwrap'));
        expect(bwraps.length).toBeGreaterThanOrEqual(1);
        for (const p of bwraps) expect(read(`/proc/${p}/environ`), `bwrap ${p}`).toBe('');
        // The token is on no command line.
        const token = read(`/proc/${bot}/environ`).split('\0').find((e) => e.startsWith('ARENA_TOKEN='))!.slice('ARENA_TOKEN='.length);
        for (const p of tree) expect(cmdline(p).join(' ')).not.toContain(token);

        const state = puzzles.sliding.scramble({ kind: 'sliding', rows: 3, cols: 3 }, createRng('sandbox-builtin'));
        const out = await solveOne(got.value, { state, timeLimitMs: 30_000, maxMoves: 1000 }, systemClock);
        expect(out?.verdict, out?.error).toBe('solved');
        expect(out?.moveCount).toBe(puzzles.sliding.bound(state).optimal);
      } finally {
        await launcher.dispose();
      }
      const left = () => descendants(process.pid).filter((p) => cmdline(p).some((a) => a.includes('dijkstra') || a.includes('bwrap')));
      for (let i = 0; i < 50 && left().length; i++) await new Promise((r) => setTimeout(r, 100));
      expect(left()).toEqual([]);
      // Its control group went with it.
      if (groupDir) {
        for (let i = 0; i < 30 && existsSync(groupDir); i++) await new Promise((r) => setTimeout(r, 100));
        expect(existsSync(groupDir)).toBe(false);
      }
    }, 120_000);
  }

  // A referee that is not root: the bot keeps the user's uid, inside a user namespace of its own. Run as
  // nobody (setpriv), which the root running this test can become; as another user it is the plain case.
  it.runIf(root)('sandbox - a referee that is not root: the bot runs as the same uid in a user namespace of its own, and solves', () => {
    const r = runFixtureAsNobody('test/fixtures/sandbox-as-user.ts', 120_000);
    expect(r.status, r.stderr).toBe(0);
    const seen = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
    // Where the kernel refuses unprivileged user namespaces the probe names why; there is nothing to run.
    if ('unsupported' in seen && process.env.CI !== 'true') return;
    expect(seen).toEqual({ referee: 65534, uid: '65534', own: { user: true, pid: true, net: true, mnt: true }, verdict: 'solved', optimal: true });
  }, 150_000);
});
