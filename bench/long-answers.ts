/**
 * A 16,777,215-move answer (Hanoi, 24 discs, optimal) in and out of each store, every step its own
 * process with its peak resident memory measured (/usr/bin/time -v, "Maximum resident set size": the
 * process and the children it waited for): written through the Store API as the referee records it (the
 * distributed worker records through the same Store.recordResult), then read back by `arena export
 * --with-moves` and `arena replay` as a user runs them. The answer is 33.5 MB of notation; a store that
 * joined it, or a reader that held it, would show it several times over here. Target: ≤ 400 MB each.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
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

/** Runs `args` under /usr/bin/time -v; rejects on a non-zero exit. */
function measured(args: readonly string[]): Promise<Run> {
  return new Promise((done, fail) => {
    const t0 = performance.now();
    const child = spawn('/usr/bin/time', ['-v', process.execPath, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('error', fail);
    child.on('exit', (code) => {
      const kb = /Maximum resident set size \(kbytes\): (\d+)/.exec(err);
      if (code !== 0 || !kb) return fail(new Error(`${args.join(' ')} exited ${code}: ${err.slice(-400)}`));
      done({ stdout: out, peakBytes: Number(kb[1]) * 1024, seconds: (performance.now() - t0) / 1000 });
    });
  });
}

const arena = (...args: string[]) => measured([join(ROOT, 'bin/arena.js'), ...args]);

/** The three rows of one store at `location`. */
async function storeRows(label: string, location: string, dir: string): Promise<BenchRow[]> {
  const write = await measured(['--import', 'tsx', join(ROOT, 'bench/_long-answer-writer.ts'), location]);
  const { match, moves, bytes } = JSON.parse(write.stdout.trim().split('\n').pop()!) as { match: number; moves: number; bytes: number };
  const file = join(dir, `export-${label}.jsonl`);
  const exported = await arena('export', String(match), '--with-moves', '--format', 'jsonl', '--out', file, '--db', location);
  const size = statSync(file).size;
  if (size < bytes) throw new Error(`export of ${label} wrote ${size} bytes, less than the ${bytes}-byte answer`);
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
    row('written through the Store API (recordResult)', write, `${(bytes / MiB).toFixed(1)} MiB of moves`),
    row('arena export --with-moves', exported, `${(size / MiB).toFixed(1)} MiB written`),
    row('arena replay (re-validated)', replay, 'solved, as recorded'),
  ];
}

export const bench: BenchSuite = async () => {
  const dir = mkdtempSync(join(tmpdir(), 'arena-long-'));
  const rows: BenchRow[] = [];
  try {
    rows.push(...(await storeRows('SQLite', join(dir, 'long.db'), dir)));
    if (pgAvailable()) {
      const server = await startPgServer();
      try {
        rows.push(...(await storeRows('PostgreSQL', await server.createDatabase('long'), dir)));
      } finally {
        await server.destroy();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
};
