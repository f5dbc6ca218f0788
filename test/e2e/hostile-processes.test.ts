/**
 * Bots that attack the referee's machine rather than the protocol: memory hogs, escaping daemons, pipe
 * holders, fork bombs, stderr floods, CPU burners, disk fillers. Real spawned processes, a real WebSocket
 * server, a real SQLite file. Every case gets its verdict, the good bot plays on, every result is stored,
 * and afterwards no process any of these bots started is alive. Linux only: the limits and the sweep read
 * and are enforced through /proc and the kernel (elsewhere they are documented as not enforced).
 *
 * The bots run in the sandbox, with a folder of their own to write their pid files in. Pids a sandboxed
 * bot writes are those of its own pid namespace, so the referee's side finds the bots' processes by the
 * mark in their environment (an extra variable the launcher passes in), or by their namespace.
 */
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { utf8Bytes } from '../../src/core/capped-text.ts';
import { createRng } from '../../src/core/rng.ts';
import type { SlidingState } from '../../src/core/types.ts';
import { puzzles } from '../../src/puzzles/index.ts';
import type { MatchConfig } from '../../src/referee/match-config.ts';
import { runNewMatch } from '../../src/referee/run-match.ts';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import type { BotLimits } from '../../src/transport/process/bot-limits.ts';
import { tsxLoaderPath } from '../../src/transport/process/builtin-bots.ts';
import { createProcessLauncher } from '../../src/transport/process/process-launcher.ts';
import { systemClock } from '../../src/transport/system-clock.ts';
import { startArenaServer, type ArenaServer } from '../../src/transport/ws-server.ts';
import { ROOT, spawnArena, waitFor } from './helpers.ts';
import { CAN_SANDBOX, confinedIfAble, fixtureEntry } from '../helpers/sandbox.ts';

const linux = process.platform === 'linux';
const MiB = 1024 * 1024;
/** Every process any fixture bot starts inherits this variable; after a match none may be left. */
const MARK = `HOSTILE_MARK=${process.pid}-${Date.now()}`;

/** Pids of live (non-zombie) processes carrying `mark` (NAME=value) in their environment. */
function marked(mark = MARK): number[] {
  const out: number[] = [];
  for (const name of linux ? readdirSync('/proc') : []) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const env = readFileSync(`/proc/${name}/environ`, 'latin1');
      if (env.split('\0').includes(mark) && alive(Number(name))) out.push(Number(name));
    } catch {
      // gone, or not ours
    }
  }
  return out;
}

/** Live `sleep 300` processes (the escapees' daemons) in a pid namespace other than this process's: a sandbox's. */
function sandboxedSleepers(): number[] {
  const ours = readlinkSync('/proc/self/ns/pid');
  return readdirSync('/proc').filter((n) => /^\d+$/.test(n)).map(Number).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'latin1') === 'sleep\0' + '300\0' && readlinkSync(`/proc/${pid}/ns/pid`) !== ours && alive(pid);
    } catch {
      return false;
    }
  });
}

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

const pidsIn = (file: string): number[] => (existsSync(file) ? readFileSync(file, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number) : []);

let server: ArenaServer;
/** The bots' own folder (they write their pid files there), and the databases' folder, which they do not see. */
let dir: string;
let dbDir: string;
beforeAll(async () => {
  server = await startArenaServer({ authenticate: () => undefined });
  dir = mkdtempSync(join(tmpdir(), 'arena-hostile-proc-'));
  dbDir = mkdtempSync(join(tmpdir(), 'arena-hostile-db-'));
  // As root each start runs as a uid of its own (never root), one per start: they all write their pid files here.
  if (process.getuid?.() === 0) {
    chmodSync(dir, 0o777);
    // Files several starts (several uids) append to.
    for (const f of ['escaped.pids', 'written.bin']) {
      writeFileSync(join(dir, f), '');
      chmodSync(join(dir, f), 0o666);
    }
  }
});
afterAll(async () => {
  await server.close();
});

const fixtureArgs = (name: string) => ['--import', pathToFileURL(tsxLoaderPath(ROOT)!).href, join(ROOT, 'test/fixtures/bots', `${name}.ts`)];

/**
 * What each bot must get on its scramble, and what its reason must say. One scramble each: the restart
 * after a crash is the subject of match-hostile.test.ts; this suite is about the machine, and it is heavy.
 */
const EXPECTED: Record<string, { verdict: string; reason?: RegExp; stdio?: boolean; limits?: Partial<BotLimits> }> = {
  instant: { verdict: 'solved' },
  'hog-buffers': { verdict: 'memory', reason: /ran out of memory under its memory limit of 384 MiB/ },
  'hog-heap': { verdict: 'memory', reason: /ran out of memory under its memory limit of 384 MiB/ },
  // Several processes, each under RLIMIT_DATA: the watch's sum catches them, or, confined as root, the
  // bot's memory control group does first.
  'hog-pool': { verdict: 'memory', reason: /used \d+(\.\d+)? MiB, over its memory limit of 384 MiB \(killed\)|killed by the kernel at its memory limit of 384 MiB/ },
  escapee: { verdict: 'solved' },
  'stdout-holder': { verdict: 'solved', stdio: true },
  'fork-bomb': { verdict: 'crash', reason: /had \d+ processes, over the limit of 128 \(killed\)/ },
  'stderr-flood': { verdict: 'crash', reason: /exited with code 4/ },
  'cpu-burner': { verdict: 'timeout', reason: /CPU-time limit of 5 s \(killed by signal SIGXCPU\)/, limits: { cpuSeconds: 5 } },
  'file-writer': { verdict: 'crash', reason: /wrote past the file-size limit of 1(\.0)? MiB \((killed by signal SIGXFSZ|exited with code 1)\)/, limits: { fileBytes: MiB } },
};

describe.runIf(linux)('referee e2e - hostile processes', () => {
  it('gives each its verdict, keeps the good bot playing, stores every result, and leaves no process behind', async () => {
    const file = join(dbDir, 'results.db');
    const pidFile = join(dir, 'escaped.pids');
    const store = openSqliteStore(file);
    const rng = createRng('hostile-processes');
    const states = [puzzles.sliding.scramble({ kind: 'sliding', rows: 2, cols: 2 }, rng)] as SlidingState[];
    const bots = Object.keys(EXPECTED);
    const config: MatchConfig = { bots, count: states.length, seed: 'hostile', timeLimitMs: 60_000, maxMoves: 1_000, concurrency: 2 };
    const run = await runNewMatch(config, states, {
      store,
      clock: systemClock,
      makeLauncher: (bot) =>
        createProcessLauncher({
          name: bot,
          command: process.execPath,
          args: fixtureArgs(bot),
          server,
          stdio: EXPECTED[bot].stdio ?? false,
          cwd: dir,
          ...confinedIfAble(fixtureEntry(bot), { guarded: [ROOT, dbDir] }),
          env: {
            [MARK.split('=')[0]]: MARK.split('=')[1],
            PID_FILE: pidFile,
            OUT_FILE: join(dir, 'written.bin'),
          },
          startTimeoutMs: 60_000,
          limits: { memoryBytes: 384 * MiB, ...EXPECTED[bot].limits },
        }),
    });
    expect(run.status).toBe('finished');
    await store.close();

    const again = openSqliteStore(file);
    const rows = await again.listSummaries(run.match.id);
    const flood = await again.stderrs().read(run.match.id, 'stderr-flood');
    await again.close();
    // The flood's stderr is kept with the match at 64 KiB, read to its very end: every other byte is counted.
    expect(flood && [utf8Bytes(flood.head), utf8Bytes(flood.tail), flood.cutBytes, flood.tail.endsWith('noise line\n')]).toEqual([
      48 * 1024,
      16 * 1024,
      8 * MiB + 50_000 * 'noise line\n'.length - 64 * 1024,
      true,
    ]);
    expect(rows).toHaveLength(bots.length * states.length);
    // Compared as one object, so a failure shows every bot's outcome at once.
    const outcome = (bot: string) => {
      const r = rows.find((x) => x.bot === bot)!;
      if (r.verdict === 'solved') return 'solved';
      // A reason carries a bounded stderr tail, never the whole flood.
      return EXPECTED[bot].reason!.test(r.error ?? '') && r.error!.length < 20_000 ? r.verdict : `${r.verdict}: ${r.error}`;
    };
    expect(Object.fromEntries(bots.map((b) => [b, outcome(b)]))).toEqual(Object.fromEntries(bots.map((b) => [b, EXPECTED[b].verdict])));
    // The escapee's daemon and the stdout holder's child: both recorded, both dead (found by their mark;
    // in a sandbox the pids they wrote are those of its own namespace).
    const escaped = pidsIn(pidFile);
    expect(escaped.length).toBeGreaterThanOrEqual(2);
    if (!CAN_SANDBOX) expect(await waitFor(() => escaped.every((p) => !alive(p)), 10_000), `escapees alive: ${escaped.filter(alive)}`).toBe(true);
    expect(await waitFor(() => marked().length === 0, 10_000), `left alive: ${marked()}`).toBe(true);
  }, 600_000);

  it('puts every bot process and its children under the kernel limits', async () => {
    const pidFile = join(dir, 'forker.pids');
    const mark = `FORKER_MARK=${process.pid}-${Date.now()}`;
    const l = createProcessLauncher({
      name: 'forker',
      command: process.execPath,
      args: fixtureArgs('forker'),
      server,
      cwd: dir,
      ...confinedIfAble(fixtureEntry('forker'), { guarded: [ROOT, dbDir] }),
      env: { PID_FILE: pidFile, [mark.split('=')[0]]: mark.split('=')[1] },
      startTimeoutMs: 60_000,
      limits: { memoryBytes: 300 * MiB, cpuSeconds: 100, fileBytes: 8 * MiB },
    });
    const r = await l.connect();
    expect(r.ok).toBe(true);
    try {
      // The bot and its grandchild, as the referee's side sees them (the file has their in-sandbox pids).
      const pids = marked(mark);
      expect(pids.length, `${pids}`).toBeGreaterThanOrEqual(pidsIn(pidFile).length);
      expect(pids.length).toBeGreaterThanOrEqual(2);
      for (const pid of pids) {
        const limits = readFileSync(`/proc/${pid}/limits`, 'utf8');
        const row = (name: string) => new RegExp(`^${name}\\s+(\\S+)\\s+(\\S+)`, 'm').exec(limits)!.slice(1);
        expect(row('Max data size'), `pid ${pid}`).toEqual([`${300 * MiB}`, `${300 * MiB}`]);
        expect(row('Max core file size')).toEqual(['0', '0']);
        expect(row('Max file size')).toEqual([`${8 * MiB}`, `${8 * MiB}`]);
        expect(row('Max cpu time')).toEqual(['100', '105']);
        // V8 is told a heap size below the limit, so it collects before the kernel refuses memory.
        expect(readFileSync(`/proc/${pid}/environ`, 'latin1')).toMatch(/NODE_OPTIONS=[^\0]*--max-old-space-size=108/);
      }
    } finally {
      await l.dispose();
    }
  }, 120_000);
});

describe.runIf(linux)('cli e2e - hostile processes', () => {
  const db = () => join(dbDir, 'cli.db');
  /** Registered with `dir` as its folder, where it writes its pid file (its environment is the protocol's alone). */
  const add = async (name: string, extra: string[] = []) => {
    const cmd = [process.execPath, ...fixtureArgs(name)].map((a) => JSON.stringify(a)).join(' ');
    const r = await spawnArena(['bot', 'add', name, '--cmd', cmd, '--cwd', dir, ...extra, '--db', db()], {}).done;
    expect(r.code, r.stderr).toBe(0);
  };

  it('exits as soon as the match is over while an escaped daemon and a pipe-holding child still run', async () => {
    await add('escapee');
    await add('stdout-holder', ['--stdio']);
    // The daemons sleep 300 s: a CLI that waited for their pipes would outlive this test's timeout.
    const match = spawnArena(['match', 'escapee', 'stdout-holder', '--puzzle', 'sliding', '--size', '2', '--count', '2', '--json', '--db', db()], {});
    // Registered bots play read-only snapshots of their folder, so no pid file: the daemons are seen in /proc.
    const seen = new Set<number>();
    let over = false;
    void match.done.then(() => (over = true));
    while (!over) {
      for (const pid of sandboxedSleepers()) seen.add(pid);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const r = await match.done;
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { results: Array<{ bot: string; verdict: string; error?: string }> };
    expect(report.results.map((x) => x.verdict), JSON.stringify(report.results)).toEqual(['solved', 'solved', 'solved', 'solved']);
    // Each bot left a daemon behind while it ran; none outlives its sandbox.
    expect(seen.size).toBeGreaterThanOrEqual(2);
    expect(await waitFor(() => sandboxedSleepers().length === 0, 10_000), `left alive: ${sandboxedSleepers()}`).toBe(true);
  }, 180_000);

  it('--memory-limit: a bot that grows past it gets `memory`, with the limit in the reason', async () => {
    await add('hog-buffers');
    const r = await spawnArena(['match', 'hog-buffers', '--puzzle', 'sliding', '--size', '2', '--count', '1', '--memory-limit', '300m', '--json', '--db', db()], {}).done;
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { results: Array<{ verdict: string; error?: string; reason?: string }> };
    expect(report.results.map((x) => x.verdict)).toEqual(['memory']);
    expect(JSON.stringify(report.results[0])).toMatch(/memory limit of 300 MiB/);
  }, 180_000);

  it('--memory-limit: a malformed or out-of-range size is one clear line', async () => {
    for (const [value, message] of [
      ['lots', /--memory-limit must be a size like 512m/],
      ['1k', /--memory-limit must be from 16 MiB/],
    ] as const) {
      const r = await spawnArena(['match', 'instant', '--memory-limit', value, '--db', db()], {}).done;
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  }, 60_000);
});
