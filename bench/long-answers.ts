/**
 * A 16,777,215-move answer (Hanoi, 24 discs, optimal) in and out of each store, every step its own
 * process with its peak resident memory measured (/usr/bin/time -v, "Maximum resident set size": the
 * process and the children it waited for). Into PostgreSQL through the real distributed path: `arena match
 * --distributed` queues it and an `arena worker` plays the hanoi-recursive bot and records the answer; into
 * SQLite (no workers there) through the Store API as the referee records it. Then read back by `arena
 * export --with-moves` and `arena replay` as a user runs them. The answer is 32 MiB of notation; a store
 * that joined it, or a reader that held it, would show it several times over here. Target: ≤ 400 MB each.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pgAvailable, startPgServer } from '../test/helpers/pg-server.ts';
import type { BenchRow, BenchSuite } from './types.ts';

const ROOT = resolve(import.meta.dirname, '..');
const MiB = 1024 * 1024;

interface Run {
  readonly stdout: string;
  readonly peakBytes: number;
  readonly seconds: number;
}

/** Keys of throwaway databases go to the bench's folder, not the user's key folder. */
let env: NodeJS.ProcessEnv = process.env;

/** Starts `args` under /usr/bin/time -v in a process group of its own (so a signal reaches node, not time). */
function start(args: readonly string[]): { child: ChildProcess; done: Promise<Run> } {
  const t0 = performance.now();
  const child = spawn('/usr/bin/time', ['-v', process.execPath, ...args], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  const done = new Promise<Run>((resolveRun, fail) => {
    child.on('error', fail);
    child.on('exit', (code) => {
      const kb = /Maximum resident set size \(kbytes\): (\d+)/.exec(err);
      if (code !== 0 || !kb) return fail(new Error(`${args.join(' ')} exited ${code}: ${err.slice(-400)}`));
      resolveRun({ stdout: out, peakBytes: Number(kb[1]) * 1024, seconds: (performance.now() - t0) / 1000 });
    });
  });
  return { child, done };
}

/** Runs `args` under /usr/bin/time -v; rejects on a non-zero exit. */
function measured(args: readonly string[]): Promise<Run> {
  return start(args).done;
}

const arena = (...args: string[]) => measured([join(ROOT, 'bin/arena.js'), ...args]);

/** Writes the answer through the Store API (bench/_long-answer-writer.ts): its run and the match's id. */
async function viaStore(location: string): Promise<{ write: Run; match: number }> {
  const write = await measured(['--import', 'tsx', join(ROOT, 'bench/_long-answer-writer.ts'), location]);
  return { write, match: (JSON.parse(write.stdout.trim().split('\n').pop()!) as { match: number }).match };
}

/**
 * Plays the answer through a worker: `arena worker` started first, then `arena match --distributed` on a
 * scrambles file holding the 24-disc tower, which returns once the worker has recorded the result; then
 * the worker is stopped as Ctrl-C stops it. The worker's run (bot included) is what is measured.
 */
async function viaWorker(url: string, dir: string): Promise<{ write: Run; match: number }> {
  const file = join(dir, 'tower.jsonl');
  writeFileSync(file, `${JSON.stringify({ kind: 'hanoi', pegs: 3, start: 'A'.repeat(24), goal: 'C'.repeat(24) })}\n`);
  const worker = start([join(ROOT, 'bin/arena.js'), 'worker', '--db', url, '--no-sandbox', '--name', 'bench', '--quiet']);
  try {
    const m = await arena('match', 'hanoi-recursive', '--scrambles', file, '--distributed', '--no-sandbox', '--time-limit', '2m', '--db', url, '--json');
    const report = JSON.parse(m.stdout) as { match: { id: number } };
    process.kill(-worker.child.pid!, 'SIGINT');
    return { write: await worker.done, match: report.match.id };
  } catch (e) {
    if (worker.child.exitCode === null) process.kill(-worker.child.pid!, 'SIGKILL');
    throw e;
  }
}

/** The three rows of one store at `location`, its answer written by `write`. */
async function storeRows(label: string, how: string, written: { write: Run; match: number }, location: string, dir: string): Promise<BenchRow[]> {
  const { write, match } = written;
  const moves = 2 ** 24 - 1;
  const file = join(dir, `export-${label}.jsonl`);
  const exported = await arena('export', String(match), '--with-moves', '--format', 'jsonl', '--out', file, '--db', location);
  const size = statSync(file).size;
  if (size < 2 * moves) throw new Error(`export of ${label} wrote ${size} bytes, less than the ${2 * moves}-byte answer`);
  const replay = await arena('replay', String(match), '1', '--db', location);
  if (!replay.stdout.includes(`re-validated: solved in ${moves} moves, as recorded`)) throw new Error(`replay of ${label}: ${replay.stdout.slice(-300)}`);
  const row = (what: string, r: Run, note: string): BenchRow => ({
    name: `${label}: ${what}, 16,777,215-move Hanoi answer, peak RSS of the process`,
    value: r.peakBytes / MiB,
    unit: 'MiB',
    target: '≤ 400',
    note: `${r.seconds.toFixed(1)} s; ${note}`,
  });
  return [
    row(how, write, 'the answer recorded'),
    row('arena export --with-moves', exported, `${(size / MiB).toFixed(1)} MiB written`),
    row('arena replay (re-validated)', replay, 'solved, as recorded'),
  ];
}

export const bench: BenchSuite = async () => {
  const dir = mkdtempSync(join(tmpdir(), 'arena-long-'));
  env = { ...process.env, ARENA_KEY_DIR: join(dir, 'keys') };
  const rows: BenchRow[] = [];
  try {
    const sqlite = join(dir, 'long.db');
    rows.push(...(await storeRows('SQLite', 'written through the Store API (recordResult)', await viaStore(sqlite), sqlite, dir)));
    if (pgAvailable()) {
      const server = await startPgServer();
      try {
        const url = await server.createDatabase('long');
        rows.push(...(await storeRows('PostgreSQL', 'arena worker playing it (bot included) and recording it', await viaWorker(url, dir), url, dir)));
      } finally {
        await server.destroy();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
};
