/**
 * The floor of the referee's per-scramble cost: a bare loop of the same design with nothing else in it. A
 * WebSocket server, one spawned Node process that answers each message at once (_floor-bot.mjs), and per
 * round trip one row committed to a SQLite file (WAL, synchronous=NORMAL), the next message sent only once
 * the row is committed. No validation, no protocol, no CPU metering: what the referee cannot go below.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { WebSocketServer, type WebSocket } from 'ws';
import { allowedCpus, formatCpuList, pinTask } from '../src/transport/process/cpu-affinity.ts';

/** Cores for the two sides of a bench loop (the default deal of a one-player match, app/launch/cores.ts). */
export interface BenchPins {
  readonly referee: readonly number[];
  readonly bot: readonly number[];
  readonly taskset: string;
}

/**
 * Runs `body` with this process on `pins.referee` (when given), then puts it back where it was: the
 * referee's side of a pinned run. The bot's side is started through taskset by the caller.
 */
export async function pinnedReferee<T>(pins: BenchPins | undefined, body: () => Promise<T>): Promise<T> {
  const before = allowedCpus();
  if (!pins || !before) return body();
  pinTask(process.pid, pins.referee, pins.taskset);
  try {
    return await body();
  } finally {
    pinTask(process.pid, before, pins.taskset);
  }
}

/**
 * Round trips per second (each with its row committed) over `count` trips, after a short warm-up; with
 * `pins`, this process on the referee's cores and the bot on its own, as a default match deals them.
 */
export async function floorRate(count: number, pins?: BenchPins): Promise<number> {
  return pinnedReferee(pins, () => floorLoop(count, pins));
}

async function floorLoop(count: number, pins: BenchPins | undefined): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'arena-floor-'));
  const db = new Database(join(dir, 'floor.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('CREATE TABLE r (id INTEGER PRIMARY KEY, trip INTEGER NOT NULL, answer TEXT NOT NULL, at TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO r (trip, answer, at) VALUES (?, ?, ?)');
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
  await new Promise((r) => wss.once('listening', r));
  const { port } = wss.address() as { port: number };
  const argv = [process.execPath, join(import.meta.dirname, '_floor-bot.mjs'), `ws://127.0.0.1:${port}`];
  const [command, ...args] = pins ? [pins.taskset, '-c', formatCpuList(pins.bot), ...argv] : argv;
  const child = spawn(command!, args, { stdio: 'ignore' });
  try {
    const ws = await new Promise<WebSocket>((r) => wss.once('connection', r));
    const warm = Math.min(200, count);
    let trip = 0;
    let t0 = 0;
    const elapsed = await new Promise<number>((done) => {
      const send = () => ws.send(JSON.stringify({ type: 'solve', id: String(trip), puzzle: { kind: 'sliding', rows: 2, cols: 2, tiles: [1, 2, 0, 3] } }));
      ws.on('message', (data) => {
        insert.run(trip, data.toString(), new Date().toISOString());
        trip++;
        if (trip === warm) t0 = performance.now();
        if (trip === warm + count) return done(performance.now() - t0);
        send();
      });
      send();
    });
    return count / (elapsed / 1000);
  } finally {
    child.kill('SIGKILL');
    wss.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
