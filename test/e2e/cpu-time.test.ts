/**
 * Fair timing, end to end: CPU time per solve, --score-by, --affinity.
 *
 * CPU time per solve: real spawned bots that compute on one thread, in two child processes, in
 * two worker threads that end before the answer, or not at all; a real WebSocket server, the match runner,
 * a real SQLite file. Each bot reports the CPU its own processes used (process.cpuUsage, the kernel's
 * getrusage), an account independent of the referee's /proc reading; the test holds one against the other.
 * CPU time, unlike wall time, does not grow when the machine is loaded, so these bounds hold on a busy
 * machine; nothing here asserts on wall time. --affinity: a bot that reads the CPUs the kernel lets it
 * use (Cpus_allowed_list) reads the set its worker was given.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/rng.ts';
import type { PuzzleState } from '../../src/core/types.ts';
import { puzzles } from '../../src/puzzles/index.ts';
import type { MatchConfig } from '../../src/referee/match-config.ts';
import { runNewMatch } from '../../src/referee/run-match.ts';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import type { ResultSummary } from '../../src/store/types.ts';
import { tsxLoaderPath } from '../../src/transport/process/builtin-bots.ts';
import { affinitySupport, formatCpuList } from '../../src/transport/process/cpu-affinity.ts';
import { createProcessLauncher } from '../../src/transport/process/process-launcher.ts';
import { systemClock } from '../../src/transport/system-clock.ts';
import { startArenaServer, type ArenaServer } from '../../src/transport/ws-server.ts';
import { confinedIfAble, fixtureEntry } from '../helpers/sandbox.ts';
import { ROOT, spawnArena } from './helpers.ts';

const linux = process.platform === 'linux';
const BURN_MS = 300;
/** /proc reports process totals in 10 ms ticks; two truncated readings differ by under 2 ticks. */
const TICKS = 20;

let server: ArenaServer;
let dir: string;
beforeAll(async () => {
  server = await startArenaServer({ authenticate: () => undefined });
  dir = mkdtempSync(join(tmpdir(), 'arena-cpu-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.runIf(linux)('referee e2e - CPU time per solve', () => {
  it('records each bot’s CPU time: close to its own account, the children and ended threads included', async () => {
    const file = join(dir, 'cpu.db');
    const store = openSqliteStore(file);
    const states = [puzzles.sliding.scramble({ kind: 'sliding', rows: 2, cols: 2 }, createRng('cpu-time'))] as PuzzleState[];
    const modes = ['single', 'fork', 'threads', 'sleep'];
    const bots = modes.map((m) => `cpu-hog --mode ${m}`);
    // One at a time: a bot's CPU time does not depend on it, but the machine is shared.
    const config: MatchConfig = { bots, count: states.length, seed: 'cpu', timeLimitMs: 120_000, maxMoves: 100, concurrency: 1 };
    const run = await runNewMatch(config, states, {
      store,
      clock: systemClock,
      makeLauncher: (bot) =>
        createProcessLauncher({
          name: bot,
          command: process.execPath,
          args: ['--import', pathToFileURL(tsxLoaderPath(ROOT)!).href, join(ROOT, 'test/fixtures/bots/cpu-hog.ts'), '--mode', bot.split(' ')[2], '--burn', String(BURN_MS)],
          server,
          startTimeoutMs: 60_000,
          // Measured from the referee's side, through the sandbox's own processes (bwrap and its init).
          ...confinedIfAble(fixtureEntry('cpu-hog')),
        }),
    });
    expect(run.status).toBe('finished');
    const rows = await store.listSummaries(run.match.id);
    await store.close();
    const of = (mode: string): ResultSummary => rows.find((r) => r.bot === `cpu-hog --mode ${mode}`)!;
    const show = JSON.stringify(rows.map((r) => ({ bot: r.bot, verdict: r.verdict, wallMs: r.wallMs, cpuMs: r.cpuMs, own: r.reportedMs })));
    for (const m of modes) expect(of(m).verdict, show).toBe('solved');
    for (const m of modes) expect(of(m).cpuMs, show).toBeTypeOf('number');

    // Single-threaded: the referee's figure covers the bot's own account of the same span, and little else
    // (the WebSocket round trip, the answer's encoding, a collection).
    const single = of('single');
    expect(single.cpuMs!, show).toBeGreaterThanOrEqual(single.reportedMs! - TICKS);
    expect(single.cpuMs!, show).toBeLessThan(single.reportedMs! * 1.25 + 50);
    // Two child processes of BURN_MS each, already exited and waited for: counted through cutime.
    const fork = of('fork');
    expect(fork.cpuMs!, show).toBeGreaterThanOrEqual(fork.reportedMs! - 2 * TICKS);
    expect(fork.cpuMs!, show).toBeGreaterThanOrEqual(2 * BURN_MS - 2 * TICKS);
    // Two worker threads that ended before the answer: their time is only in the process's total.
    const threads = of('threads');
    expect(threads.cpuMs!, show).toBeGreaterThanOrEqual(threads.reportedMs! - TICKS);
    expect(threads.cpuMs!, show).toBeLessThan(threads.reportedMs! * 1.25 + 50);
    // A bot that only waits uses next to nothing, and far less than one that forks workers.
    const sleep = of('sleep');
    expect(sleep.cpuMs!, show).toBeLessThan(BURN_MS / 3);
    expect(fork.cpuMs!, show).toBeGreaterThan(sleep.cpuMs! + BURN_MS);
  }, 300_000);
});

describe('cli e2e - --score-by', () => {
  const db = () => join(dir, 'score-by.db');
  const MATCH = ['match', 'reference-bfs', 'backtracking', '--puzzle', 'sliding', '--rows', '2', '--cols', '3', '--count', '3', '--seed', '5'];

  it.runIf(linux)('cpu: stored with the match, so show decides ties the same way; every result has its CPU time', async () => {
    const r = await spawnArena([...MATCH, '--score-by', 'cpu', '--json', '--db', db()], {}).done;
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { match: { id: number; scoreBy: string }; results: Array<{ cpuMs?: number }>; scrambles: unknown[] };
    expect(report.match.scoreBy).toBe('cpu');
    expect(report.results.every((x) => typeof x.cpuMs === 'number')).toBe(true);
    const shown = await spawnArena(['show', String(report.match.id), '--json', '--db', db()], {}).done;
    expect(shown.code, shown.stderr).toBe(0);
    const again = JSON.parse(shown.stdout) as typeof report;
    expect(again.match.scoreBy).toBe('cpu');
    expect(again.scrambles).toEqual(report.scrambles);
    const text = await spawnArena(['show', String(report.match.id), '--db', db()], {}).done;
    expect(text.stdout).toContain('then fewer moves, then less CPU time');
    expect(text.stdout).toMatch(/median wall\s+median cpu/);
  }, 180_000);

  it('rejects an unknown clock in one line, and cpu scoring with a remote bot', async () => {
    const bad = await spawnArena([...MATCH, '--score-by', 'gpu', '--db', db()], {}).done;
    expect(bad.code).not.toBe(0);
    expect(bad.stderr.trim()).toBe('arena: --score-by must be wall or cpu (got "gpu")');
    const add = await spawnArena(['bot', 'add', 'far-away', '--remote', '--db', db()], {}).done;
    expect(add.code, add.stderr).toBe(0);
    const remote = await spawnArena(['match', 'far-away', 'reference-bfs', '--score-by', 'cpu', '--db', db()], {}).done;
    expect(remote.code).not.toBe(0);
    expect(remote.stderr).toMatch(linux ? /--score-by cpu needs CPU time, which remote bots do not have \(far-away run elsewhere\)/ : /measured on Linux only/);
    expect(remote.stderr).not.toMatch(/\n\s+at /);
  }, 180_000);
});

const reporterArgs = () => ['--import', pathToFileURL(tsxLoaderPath(ROOT)!).href, join(ROOT, 'test/fixtures/bots/affinity-reporter.ts')];
const support = affinitySupport();

/** What the affinity tests read of `arena match --json`. */
interface Report {
  readonly match: { readonly cores?: { readonly text: string; readonly deal: unknown } };
  readonly results: ReadonlyArray<{ readonly verdict: string; readonly note?: string }>;
}

/** A fresh database with the fixture registered as `reporter`; returns its path. */
async function withReporter(name: string): Promise<string> {
  const db = join(dir, name);
  const cmd = [process.execPath, ...reporterArgs()].map((a) => JSON.stringify(a)).join(' ');
  const add = await spawnArena(['bot', 'add', 'reporter', '--cmd', cmd, '--db', db], {}).done;
  expect(add.code, add.stderr).toBe(0);
  return db;
}

describe.runIf(linux)('referee e2e - --affinity', () => {
  it('a bot started pinned reads its own allowed CPUs: exactly the set assigned (under the kernel limits too)', async () => {
    expect(support.ok, support.ok ? '' : support.reason).toBe(true);
    if (!support.ok) return;
    const store = openSqliteStore(join(dir, 'affinity.db'));
    const states = [puzzles.sliding.scramble({ kind: 'sliding', rows: 2, cols: 2 }, createRng('affinity'))] as PuzzleState[];
    // The last allowed CPU alone: a set the bot would not have by inheritance.
    const cpus = [support.cpus.at(-1)!];
    const config: MatchConfig = { bots: ['affinity-reporter'], count: 1, seed: 'pin', timeLimitMs: 60_000, maxMoves: 100, concurrency: 1 };
    const run = await runNewMatch(config, states, {
      store,
      clock: systemClock,
      makeLauncher: (bot) =>
        createProcessLauncher({
          name: bot,
          command: process.execPath,
          args: reporterArgs(),
          server,
          startTimeoutMs: 60_000,
          limits: {},
          affinity: { cpus, taskset: support.taskset },
          ...confinedIfAble(fixtureEntry('affinity-reporter')),
        }),
    });
    const rows = await store.listSummaries(run.match.id);
    await store.close();
    expect(rows.map((r) => [r.verdict, r.note])).toEqual([['solved', `cpus ${formatCpuList(cpus)}`]]);
  }, 120_000);

  it('cli: by default one player\'s bot runs on a core of its own, off the referee\'s, and the report (text and --json) says how cores were dealt', async () => {
    expect(support.ok && support.cpus.length >= 2, 'two cores or more, with taskset').toBe(true);
    if (!support.ok) return;
    const db = await withReporter('affinity-one.db');
    // No flag: pinning is the default where there are more cores than players.
    const r = await spawnArena(['match', 'reporter', '--puzzle', 'sliding', '--size', '2', '--count', '2', '--json', '--db', db], {}).done;
    expect(r.code, r.stderr).toBe(0);
    const [first, second, ...rest] = support.cpus;
    const referee = formatCpuList([first!, ...rest]);
    const report = JSON.parse(r.stdout) as Report;
    expect(report.results.map((x) => [x.verdict, x.note])).toEqual([
      ['solved', `cpus ${second}`],
      ['solved', `cpus ${second}`],
    ]);
    expect(report.match.cores).toEqual({ text: `referee ${referee}; reporter ${second}`, deal: { pinned: true, referee: [first, ...rest], players: [[second]], bots: { reporter: 1 } } });
    const shown = await spawnArena(['show', '1', '--db', db], {}).done;
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(`\ncores: referee ${referee}; reporter ${second}\n`);
  }, 180_000);

  it('cli: with no more cores than players nothing is pinned, and the report says so (the old --affinity is still accepted)', async () => {
    if (!support.ok) return;
    const db = await withReporter('affinity-cli.db');
    const players = support.cpus.length;
    const r = await spawnArena(['match', 'reporter', '--puzzle', 'sliding', '--size', '2', '--count', String(2 * players), '--concurrency', String(players), '--affinity', '--json', '--db', db], {}).done;
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as Report;
    expect(report.results).toHaveLength(2 * players);
    for (const x of report.results) expect([x.verdict, x.note]).toEqual(['solved', `cpus ${formatCpuList(support.cpus)}`]);
    expect(report.match.cores?.text).toBe(`not pinned: ${players} cores for ${players} players`);
  }, 180_000);

  it('cli: --no-affinity runs the bots unpinned, and the report says it was asked', async () => {
    if (!support.ok) return;
    const db = await withReporter('affinity-off.db');
    const r = await spawnArena(['match', 'reporter', '--puzzle', 'sliding', '--size', '2', '--count', '2', '--no-affinity', '--json', '--db', db], {}).done;
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as Report;
    expect(report.results.map((x) => x.note)).toEqual([`cpus ${formatCpuList(support.cpus)}`, `cpus ${formatCpuList(support.cpus)}`]);
    expect(report.match.cores?.text).toBe('not pinned: --no-affinity');
  }, 180_000);

  it('cli: a registered bot whose folder declares threads in arena-bot.json is dealt them where they are free; a broken manifest is one line', async () => {
    if (!support.ok) return;
    const db = join(dir, 'affinity-threads.db');
    const folder = mkdtempSync(join(dir, 'threaded-'));
    writeFileSync(join(folder, 'arena-bot.json'), JSON.stringify({ name: 'threaded', run: 'node main.js', transport: 'websocket', threads: 2 }));
    const cmd = [process.execPath, ...reporterArgs()].map((a) => JSON.stringify(a)).join(' ');
    const add = await spawnArena(['bot', 'add', 'threaded', '--cmd', cmd, '--cwd', folder, '--db', db], {}).done;
    expect(add.code, add.stderr).toBe(0);
    const r = await spawnArena(['match', 'threaded', '--puzzle', 'sliding', '--size', '2', '--count', '1', '--json', '--db', db, '--no-sandbox'], {}).done;
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as Report;
    // Two threads wanted, and the cores besides the referee's are as many as there are free.
    const given = support.cpus.slice(1, 3);
    expect(report.results.map((x) => x.note)).toEqual([`cpus ${formatCpuList(given)}`]);
    expect(report.match.cores?.deal).toMatchObject({ pinned: true, players: [given], bots: { threaded: given.length } });
    // The snapshot is what plays, so a broken manifest is registered anew to be seen.
    const broken = mkdtempSync(join(dir, 'broken-'));
    writeFileSync(join(broken, 'arena-bot.json'), JSON.stringify({ name: 'broken', run: 'node main.js', transport: 'websocket', threads: 0 }));
    expect((await spawnArena(['bot', 'add', 'broken', '--cmd', cmd, '--cwd', broken, '--db', db], {}).done).code).toBe(0);
    const bad = await spawnArena(['match', 'broken', '--puzzle', 'sliding', '--size', '2', '--count', '1', '--db', db, '--no-sandbox'], {}).done;
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/bot broken: arena-bot.json: "threads" must be at least 1/);
    expect(bad.stderr).not.toMatch(/\n\s+at /);
  }, 180_000);

  it('cli: without taskset nothing is pinned and the report says why', async () => {
    if (!support.ok) return;
    const db = await withReporter('affinity-unpinned.db');
    const r = await spawnArena(['match', 'reporter', '--puzzle', 'sliding', '--size', '2', '--count', '1', '--json', '--db', db], { PATH: '/nonexistent' }).done;
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as Report;
    expect(report.results.map((x) => [x.verdict, x.note])).toEqual([['solved', `cpus ${formatCpuList(support.cpus)}`]]);
    expect(report.match.cores?.text).toBe('not pinned: CPU pinning needs taskset (util-linux) on PATH, and it is not there');
  }, 180_000);
});
