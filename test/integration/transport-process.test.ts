import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BotLauncher, BotLink, LinkEvent } from '../../src/protocol/link.ts';
import type { MovesMessage } from '../../src/protocol/messages.ts';
import { buildIsFresh } from '../../src/runtime/source-tree.ts';
import { builtinBotCommand, listBuiltinBots, tsxLoaderPath } from '../../src/transport/process/builtin-bots.ts';
import { createProcessLauncher } from '../../src/transport/process/process-launcher.ts';
import type { ArenaServer } from '../../src/transport/ws-server.ts';
import { startArenaServer } from '../../src/transport/ws-server.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const START_MS = 30_000; // tsx start-up on a shared 2-core machine

let server: ArenaServer;
let pingServer: ArenaServer;
const launchers: BotLauncher[] = [];
beforeAll(async () => {
  server = await startArenaServer({ authenticate: () => undefined });
  pingServer = await startArenaServer({ authenticate: () => undefined, pingIntervalMs: 100 });
});
afterEach(async () => {
  await Promise.all(launchers.splice(0).map((l) => l.dispose()));
});
afterAll(async () => {
  await server.close();
  await pingServer.close();
});

function fixture(name: string, extra: { stdio?: boolean; env?: Record<string, string>; srv?: ArenaServer } = {}): BotLauncher {
  const loader = tsxLoaderPath(ROOT)!;
  const l = createProcessLauncher({
    name,
    command: process.execPath,
    args: ['--import', loader, join(ROOT, 'test/fixtures/bots', `${name}.ts`)],
    server: extra.srv ?? server,
    stdio: extra.stdio,
    env: extra.env,
    startTimeoutMs: START_MS,
  });
  launchers.push(l);
  return l;
}

function builtin(name: string, stdio = false): BotLauncher {
  const cmd = builtinBotCommand(name, ROOT)!;
  const l = createProcessLauncher({ name, ...cmd, server, stdio, startTimeoutMs: START_MS });
  launchers.push(l);
  return l;
}

async function linkOf(l: BotLauncher): Promise<BotLink> {
  const r = await l.connect();
  if (!r.ok) throw new Error(r.reason);
  return r.value;
}

function record(link: BotLink): { events: LinkEvent[]; until(pred: (e: LinkEvent) => boolean): Promise<LinkEvent> } {
  const events: LinkEvent[] = [];
  const waiters: Array<() => void> = [];
  link.onEvent((e) => {
    events.push(e);
    for (const w of waiters.splice(0)) w();
  });
  return {
    events,
    until: (pred) =>
      new Promise((done) => {
        const check = (): void => {
          const hit = events.find(pred);
          if (hit) done(hit);
          else waiters.push(check);
        };
        check();
      }),
  };
}

/** Independent oracle: applies blank moves to a sliding board; undefined on an illegal move. */
function applySliding(rows: number, cols: number, tiles: number[], moves: string): number[] | undefined {
  const t = tiles.slice();
  let b = t.indexOf(0);
  for (const m of moves) {
    const r = Math.floor(b / cols), c = b % cols;
    const d = m === 'U' && r > 0 ? -cols : m === 'D' && r < rows - 1 ? cols : m === 'L' && c > 0 ? -1 : m === 'R' && c < cols - 1 ? 1 : 0;
    if (d === 0) return undefined;
    [t[b], t[b + d]] = [t[b + d]!, 0];
    b += d;
  }
  return t;
}

/** True while `pid` exists and is not a zombie waiting to be reaped. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw e;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function eventually(pred: () => boolean, limitMs = 5000): Promise<boolean> {
  for (const end = Date.now() + limitMs; Date.now() < end; await new Promise((r) => setTimeout(r, 20))) if (pred()) return true;
  return pred();
}

const board = { kind: 'sliding' as const, rows: 2, cols: 3, tiles: [4, 1, 2, 5, 0, 3] };

describe('builtin bots', () => {
  it('lists bots/<name>/main.ts folders and runs the fresh bundle, else the source through tsx', () => {
    expect(listBuiltinBots(ROOT)).toContain('reference-bfs');
    const cmd = builtinBotCommand('reference-bfs', ROOT)!;
    expect(cmd.command).toBe(process.execPath);
    if (buildIsFresh(ROOT)) {
      // The one-file bundle's start from its code cache (scripts/bot-bundles.js), which every bot gets.
      expect(cmd.args).toEqual([join(ROOT, 'dist/bots-cjs/reference-bfs/main.cjs')]);
    } else {
      expect(cmd.args[0]).toBe('--import');
      expect(cmd.args[1]).toMatch(/^file:.*tsx.*\.mjs$/);
      expect(cmd.args[2]).toBe(join(ROOT, 'bots/reference-bfs/main.ts'));
    }
  });

  it('knows no bot outside bots/', () => {
    expect(builtinBotCommand('no-such-bot', ROOT)).toBeUndefined();
    expect(builtinBotCommand('../src', ROOT)).toBeUndefined();
    expect(listBuiltinBots('/nonexistent')).toEqual([]);
  });
});

describe('createProcessLauncher', () => {
  for (const stdio of [false, true]) {
    it(`runs the reference bot through a solve round trip (${stdio ? 'stdio' : 'WebSocket'})`, async () => {
      const link = await linkOf(builtin('reference-bfs', stdio));
      expect(link.hello).toMatchObject({ name: 'reference-bfs', capabilities: [{ kind: 'sliding', maxSize: 3 }] });
      const rec = record(link);
      link.send({ type: 'solve', id: 'p1', puzzle: board, timeLimitMs: 10_000, maxMoves: 1000 });
      const answer = (await rec.until((e) => e.type === 'message')) as { message: MovesMessage };
      expect(answer.message).toMatchObject({ type: 'moves', id: 'p1', final: true, info: { optimal: true } });
      const after = applySliding(2, 3, board.tiles, answer.message.moves as string);
      expect(after).toEqual([1, 2, 3, 4, 5, 0]);

      link.send({ type: 'solve', id: 'p2', puzzle: { kind: 'hanoi', pegs: 3, start: 'AA', goal: 'CC' }, timeLimitMs: 1000, maxMoves: 10 });
      const declined = await rec.until((e) => e.type === 'message' && e.message.type === 'unsupported');
      expect(declined).toMatchObject({ message: { id: 'p2' } });
      // A spawned bot's CPU time can be read (on Linux), never decreases, and is gone with the bot.
      const cpu0 = link.cpuMs?.();
      const cpu1 = link.cpuMs?.();
      if (process.platform === 'linux') {
        expect(cpu0).toBeGreaterThan(0);
        expect(cpu1).toBeGreaterThanOrEqual(cpu0!);
      }
      await link.close();
      expect(link.cpuMs?.()).toBeUndefined();
      expect(rec.events.filter((e) => e.type === 'malformed')).toEqual([]);
      expect(rec.events.at(-1)).toEqual({ type: 'closed', reason: 'closed by referee' });
    });
  }

  it('ends the link at the first garbage message: one malformed, then closed', async () => {
    const rec = record(await linkOf(fixture('garbage')));
    await rec.until((e) => e.type === 'closed');
    expect(rec.events.map((e) => e.type)).toEqual(['malformed', 'closed']);
    expect(rec.events[0]!.type === 'malformed' && rec.events[0]!.reason).toMatch(/^not JSON/);
  });

  it('reports a flood as malformed, then closed', async () => {
    const link = await linkOf(fixture('flood'));
    const rec = record(link);
    link.send({ type: 'solve', id: 'f1', puzzle: board, timeLimitMs: 5000, maxMoves: 100 });
    await rec.until((e) => e.type === 'closed');
    expect(rec.events[0]).toEqual({ type: 'malformed', reason: 'message larger than 4 MiB' });
    expect(rec.events.map((e) => e.type)).toEqual(['malformed', 'closed']);
  });

  it('reports a crash with the exit code and stderr, after the partial chunk', async () => {
    const link = await linkOf(fixture('crasher'));
    const rec = record(link);
    link.send({ type: 'solve', id: 'c1', puzzle: board, timeLimitMs: 5000, maxMoves: 100 });
    const closed = await rec.until((e) => e.type === 'closed');
    expect(rec.events[0]).toEqual({ type: 'message', message: { type: 'moves', id: 'c1', moves: 'U', final: false } });
    expect(closed.type === 'closed' && closed.reason).toMatch(/exited with code 3/);
    expect(closed.type === 'closed' && closed.reason).toMatch(/crasher: about to crash/);
  });

  it('cuts off a bot that never answers pings', async () => {
    const rec = record(await linkOf(fixture('no-pong', { srv: pingServer })));
    expect(await rec.until((e) => e.type === 'closed')).toMatchObject({ reason: expect.stringMatching(/no pong: bot unresponsive/) });
  });

  it('keeps a silent bot connected: it answers pings while it does not answer', async () => {
    const link = await linkOf(fixture('silent', { srv: pingServer }));
    link.send({ type: 'solve', id: 's1', puzzle: board, timeLimitMs: 100, maxMoves: 100 });
    await new Promise((r) => setTimeout(r, 600));
    expect(link.closed).toBe(false);
  });

  it('fails to connect a bot whose token is refused, with its stderr', async () => {
    const r = await fixture('wrong-token').connect();
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toMatch(/exited with code 1 before completing the handshake/);
    expect(!r.ok && r.reason).toMatch(/wrong-token: HTTP 401/);
  });

  it('fails to connect a command that does not exist', async () => {
    const l = createProcessLauncher({ name: 'ghost', command: '/nonexistent/bot', args: [], server, startTimeoutMs: 5000 });
    launchers.push(l);
    const r = await l.connect();
    expect(!r.ok && r.reason).toMatch(/could not start: .*ENOENT/);
  });

  it('times out a process that never says hello', async () => {
    const l = createProcessLauncher({ name: 'sleeper', command: 'sleep', args: ['30'], server, startTimeoutMs: 300 });
    launchers.push(l);
    const r = await l.connect();
    expect(!r.ok && r.code).toBe('timeout');
  });

  it('kills the whole process group on close(), grandchildren included', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arena-'));
    const pidFile = join(dir, 'pids');
    const link = await linkOf(fixture('forker', { env: { PID_FILE: pidFile } }));
    const pids = readFileSync(pidFile, 'utf8').trim().split(' ').map(Number);
    expect(pids).toHaveLength(2);
    for (const pid of pids) expect(alive(pid)).toBe(true);
    await link.close();
    expect(await eventually(() => pids.every((p) => !alive(p)))).toBe(true);
  });

  it('kills the previous instance on reconnect and everything on dispose()', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arena-'));
    const l = fixture('forker', { env: { PID_FILE: join(dir, 'pids') } });
    const first = await linkOf(l);
    const firstPids = readFileSync(join(dir, 'pids'), 'utf8').trim().split(' ').map(Number);
    const second = await linkOf(l);
    expect(first.closed).toBe(true);
    expect(await eventually(() => firstPids.every((p) => !alive(p)))).toBe(true);
    const secondPids = readFileSync(join(dir, 'pids'), 'utf8').trim().split(' ').map(Number);
    await l.dispose();
    expect(second.closed).toBe(true);
    expect(await eventually(() => secondPids.every((p) => !alive(p)))).toBe(true);
    expect((await l.connect()).ok).toBe(false);
  });
});

describe('fixture bots', () => {
  it('instant solves a 2×2 board', async () => {
    const link = await linkOf(fixture('instant'));
    const rec = record(link);
    link.send({ type: 'solve', id: 'i1', puzzle: { kind: 'sliding', rows: 2, cols: 2, tiles: [0, 3, 2, 1] }, timeLimitMs: 5000, maxMoves: 100 });
    const e = (await rec.until((x) => x.type === 'message')) as { message: MovesMessage };
    expect(applySliding(2, 2, [0, 3, 2, 1], e.message.moves as string)).toEqual([1, 2, 3, 0]);
  });

  it('illegal answers a move that cannot be made', async () => {
    const link = await linkOf(fixture('illegal'));
    const rec = record(link);
    link.send({ type: 'solve', id: 'x', puzzle: board, timeLimitMs: 5000, maxMoves: 100 });
    const e = (await rec.until((x) => x.type === 'message')) as { message: MovesMessage };
    expect(applySliding(2, 3, board.tiles, e.message.moves as string)).toBeUndefined();
  });
});

describe('referee exit', () => {
  it('kills every bot process group when the referee process exits without disposing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arena-'));
    const pidFile = join(dir, 'pids');
    const script = join(dir, 'referee.mts');
    writeFileSync(
      script,
      `import { createProcessLauncher } from ${JSON.stringify(join(ROOT, 'src/transport/process/process-launcher.ts'))};
import { startArenaServer } from ${JSON.stringify(join(ROOT, 'src/transport/ws-server.ts'))};
const server = await startArenaServer({ authenticate: () => undefined });
const l = createProcessLauncher({ name: 'forker', command: process.execPath,
  args: ['--import', ${JSON.stringify(tsxLoaderPath(ROOT))}, ${JSON.stringify(join(ROOT, 'test/fixtures/bots/forker.ts'))}],
  server, env: { PID_FILE: ${JSON.stringify(pidFile)} }, startTimeoutMs: 30000 });
const r = await l.connect();
process.exit(r.ok ? 0 : 1);
`,
    );
    const code = await new Promise<number | null>((done) => {
      const child = spawn(process.execPath, ['--import', tsxLoaderPath(ROOT)!, script], { stdio: 'ignore' });
      child.once('exit', (c) => done(c));
    });
    expect(code).toBe(0);
    const pids = readFileSync(pidFile, 'utf8').trim().split(' ').map(Number);
    expect(await eventually(() => pids.every((p) => !alive(p)))).toBe(true);
  });
});
