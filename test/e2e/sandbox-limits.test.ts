/**
 * The limits the kernel enforces on a confined bot, tried by bots that break them (test/fixtures/spies/
 * limits_bot.py), each from a stdio bot and a WebSocket bot, with real bwrap, real processes, the real CLI
 * and a real SQLite file: a 512 MiB memfd and tmpfs files under --memory-limit 128m (a `memory` verdict
 * from the bot's control group), a disk fill (a clear verdict; the database stays writable and the next
 * match plays), `unshare -Ur` and a new network namespace (refused), widening a CPU pin (the cpuset
 * holds), the per-uid keyring and /proc/<pid>/root across two bots (a uid of each bot's own), and the
 * persistent cache (kept across matches, emptied by `arena bot clear-cache`). The stored results are
 * exactly what the referee decided.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupSupport } from '../../src/sandbox/limits/bot-cgroup.ts';
import { createProcessLauncher } from '../../src/transport/process/process-launcher.ts';
import { startArenaServer, type ArenaServer } from '../../src/transport/ws-server.ts';
import type { BotLauncher } from '../../src/protocol/link.ts';
import { CAN_SANDBOX, sandboxFor } from '../helpers/sandbox.ts';
import { ROOT, spawnArena } from './helpers.ts';

const root = process.getuid?.() === 0;
const SPIES = join(ROOT, 'test/fixtures/spies');
const SCRATCH = existsSync('/var/tmp') ? '/var/tmp' : tmpdir();
const BOARD = ['--puzzle', 'sliding', '--rows', '2', '--cols', '3'];

interface Report {
  match: { id: number };
  results: Array<{ scramble: number; bot: string; verdict: string; reason?: string }>;
}
interface Probe {
  userns: string;
  netns: string;
  'widen-pin': string;
  cpus: number[];
  keys: string;
  uid: number;
}

let base: string;
let db: string;
let caches: string;
let folder: string;

const arena = async (args: string[]) => spawnArena([...args, '--db', db], { ARENA_BOT_CACHE: caches }).done;
/** `arena bot clear-cache` needs no database. */
const clearCache = async (name: string) => spawnArena(['bot', 'clear-cache', name], { ARENA_BOT_CACHE: caches }).done;

/** Registers `limits_bot.py <mode>` as `<mode>` (stdio) and `<mode>-ws` (WebSocket). */
async function addPair(mode: string): Promise<void> {
  for (const [name, extra] of [[mode, ['--stdio']], [`${mode}-ws`, []]] as const) {
    const added = await arena(['bot', 'add', name, '--cmd', `python3 limits_bot.py ${mode} ${name}`, '--cwd', folder, ...extra]);
    expect(added.code, added.stderr).toBe(0);
  }
}

/** Plays a match and checks that what the store holds is what the referee reported. */
async function play(args: string[]): Promise<Report> {
  const r = await arena(['match', ...args, ...BOARD, '--json']);
  expect(r.code, r.stderr).toBe(0);
  const decided = JSON.parse(r.stdout) as Report;
  const shown = await arena(['show', String(decided.match.id), '--json']);
  expect(shown.code, shown.stderr).toBe(0);
  expect(JSON.parse(shown.stdout)).toEqual(decided);
  return decided;
}

const probes = (name: string): Probe[] =>
  readFileSync(join(caches, name, 'limits.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Probe);

beforeAll(() => {
  base = mkdtempSync(join(SCRATCH, 'arena-limits-'));
  db = join(base, 'arena.db');
  caches = join(base, 'caches');
  folder = join(base, 'bot');
  mkdirSync(folder);
  for (const f of readdirSync(SPIES)) if (f.endsWith('.py')) copyFileSync(join(SPIES, f), join(folder, f));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe.runIf(process.platform === 'linux' && CAN_SANDBOX && root)('sandbox e2e - limits the kernel enforces (root referee)', () => {
  it('sandbox limits - the machine has a memory and a cpuset control group for each bot (CI must)', () => {
    const s = groupSupport();
    expect(s.memory, 'no memory control group can be made here').toBeDefined();
    expect(s.cpuset, 'no cpuset control group can be made here').toBeDefined();
  });

  it('sandbox limits - a 512 MiB memfd never mapped, and 300 MiB in /tmp or /dev/shm, under --memory-limit 128m: `memory`, stdio and WebSocket', async () => {
    for (const mode of ['memfd', 'tmp', 'shm']) await addPair(mode);
    const bots = ['memfd', 'memfd-ws', 'tmp', 'tmp-ws', 'shm', 'shm-ws'];
    const decided = await play([...bots, '--count', '1', '--memory-limit', '128m']);
    expect(decided.results.map((x) => x.bot).sort()).toEqual([...bots].sort());
    for (const x of decided.results) {
      expect(x.verdict, `${x.bot}: ${x.reason}`).toBe('memory');
      expect(x.reason, x.bot).toMatch(/killed by the kernel at its memory limit of 128 MiB/);
    }
  }, 300_000);

  it('sandbox limits - a bot that fills its disk budget gets a clear verdict; the database stays writable and the next match plays', async () => {
    await addPair('fill');
    await addPair('probe');
    const decided = await play(['fill', 'fill-ws', '--count', '1']);
    expect(decided.results).toHaveLength(2);
    for (const x of decided.results) {
      expect(x.verdict, x.bot).toBe('crash');
      expect(x.reason, x.bot).toMatch(/filled its disk budget of 256 MiB \(scratch and cache together\)/);
    }
    // What it wrote to its cache is within the budget: the host's disk was never at its mercy.
    for (const name of ['fill', 'fill-ws']) {
      const kept = readdirSync(join(caches, name)).reduce((n, f) => n + statSync(join(caches, name, f)).size, 0);
      expect(kept, name).toBeLessThanOrEqual(256 * 1024 * 1024);
    }
    const check = new Database(db);
    expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
    check.exec('CREATE TABLE IF NOT EXISTS still_writable (x); DROP TABLE still_writable;');
    check.close();
    const next = await play(['probe', 'probe-ws', '--count', '1']);
    expect(next.results.map((x) => x.verdict)).toEqual(['solved', 'solved']);
  }, 300_000);

  it('sandbox limits - no user or network namespace, a pin it cannot widen, no keyring, a uid of its own, a cache kept across matches and cleared by the command', async () => {
    // probe and probe-ws played one match above (warm-up + 1 scramble each); this is their second.
    const before = { probe: probes('probe').length, 'probe-ws': probes('probe-ws').length };
    const decided = await play(['probe', 'probe-ws', '--count', '2', '--affinity']);
    expect(decided.results.map((x) => x.verdict)).toEqual(['solved', 'solved', 'solved', 'solved']);
    const uids = new Set<number>();
    for (const name of ['probe', 'probe-ws']) {
      const lines = probes(name);
      // The cache persisted: the first match's lines are still there, the second's follow.
      expect(lines.length, name).toBe(before[name as keyof typeof before] + 3);
      const pinned = lines.slice(before[name as keyof typeof before]);
      for (const p of pinned) {
        expect(p.userns, name).toMatch(/^denied: .*Operation not permitted/);
        expect(p.netns, name).toMatch(/^denied: .*Operation not permitted/);
        // sched_setaffinity to every CPU leaves it on its own cores: the cpuset holds.
        if (availableParallelism() > 1) expect(p.cpus.length, `${name}: ${JSON.stringify(p)}`).toBeLessThan(availableParallelism());
        // The kernel's key calls are refused outright: no keyring to share with a bot that had this uid before.
        expect(p.keys, name).toMatch(/^denied: PermissionError: \[Errno 1\] add_key/);
        expect(p.uid).toBeGreaterThanOrEqual(60000);
        expect(p.uid).toBeLessThan(61000);
        uids.add(p.uid);
      }
      expect(new Set(pinned.map((p) => p.uid)).size, name).toBe(1);
    }
    expect(uids.size).toBe(2);

    const cleared = await clearCache('probe');
    expect(cleared.code, cleared.stderr).toBe(0);
    expect(cleared.stdout).toMatch(/^cleared the cache of bot probe: \d+(\.\d+)? KiB in /);
    expect(existsSync(join(caches, 'probe'))).toBe(false);
    expect(existsSync(join(caches, 'probe-ws', 'limits.jsonl'))).toBe(true);
    const bad = await clearCache('..');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(caches)).toBe(true);
  }, 300_000);
});

describe.runIf(process.platform === 'linux' && CAN_SANDBOX && root)('sandbox e2e - two running bots, two uids', () => {
  let server: ArenaServer;
  beforeAll(async () => {
    server = await startArenaServer({ authenticate: () => undefined });
  });
  afterAll(async () => {
    await server.close();
  });

  const read = (file: string): string => {
    try {
      return readFileSync(file, 'latin1');
    } catch {
      return '';
    }
  };
  /** Pid and real uid of the python process running `limits_bot.py idle <name>`. */
  const find = (name: string): { pid: number; uid: number } | undefined => {
    for (const p of readdirSync('/proc')) {
      if (!/^\d+$/.test(p)) continue;
      const cmd = read(`/proc/${p}/cmdline`).split('\0').filter(Boolean);
      if (!cmd.some((a) => a.endsWith('/limits_bot.py')) || cmd.at(-2) !== 'idle' || cmd.at(-1) !== name || cmd.some((a) => a.includes('bwrap'))) continue;
      const uid = Number(/^Uid:\s+(\d+)/m.exec(read(`/proc/${p}/status`))?.[1]);
      return { pid: Number(p), uid };
    }
    return undefined;
  };
  const canList = (uid: number, path: string): boolean =>
    spawnSync('setpriv', ['--reuid', String(uid), '--regid', String(uid), '--clear-groups', 'ls', path], { stdio: 'ignore' }).status === 0;

  it('sandbox limits - a stdio and a WebSocket bot alive at once run as two uids of the pool; neither uid reaches the other\'s /proc/<pid>/root', async () => {
    const entry = join(SPIES, 'limits_bot.py');
    const launchers: BotLauncher[] = ['idle-stdio', 'idle-ws'].map((name) =>
      createProcessLauncher({
        name,
        command: 'python3',
        args: [entry, 'idle', name],
        server,
        stdio: name === 'idle-stdio',
        startTimeoutMs: 60_000,
        confine: sandboxFor(entry),
      }),
    );
    try {
      for (const l of launchers) {
        const got = await l.connect();
        expect(got.ok, got.ok ? '' : got.reason).toBe(true);
      }
      const a = find('idle-stdio')!;
      const b = find('idle-ws')!;
      expect(a, 'stdio bot not found').toBeDefined();
      expect(b, 'WebSocket bot not found').toBeDefined();
      for (const x of [a, b]) {
        expect(x.uid).toBeGreaterThanOrEqual(60000);
        expect(x.uid).toBeLessThan(61000);
      }
      expect(a.uid).not.toBe(b.uid);
      // Each uid reaches its own bot's root (so the check can fail), never the other's.
      expect(canList(a.uid, `/proc/${a.pid}/root/`)).toBe(true);
      expect(canList(a.uid, `/proc/${b.pid}/root/`)).toBe(false);
      expect(canList(b.uid, `/proc/${a.pid}/root/`)).toBe(false);
      // Their slots are locked while they run.
      expect(existsSync(join('/run/puzzle-arena/uids', String(a.uid)))).toBe(true);
    } finally {
      await Promise.all(launchers.map((l) => l.dispose()));
    }
  }, 120_000);
});
