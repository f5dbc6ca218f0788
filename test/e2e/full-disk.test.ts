import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './helpers.ts';

// The database on a filesystem that fills up mid-match, with answers of about a million moves (20-disc
// towers): the match stops with one plain line naming the database and the exact --resume command, every
// result it reported is stored once, and once there is room the resume finishes it, each result once. A
// clean stop leaves one self-contained file, and `arena backup` copies a database safely.
//
// The small filesystem is a real one: a 6 MiB tmpfs (as root), else a file-size limit on the process
// (ulimit -f with SIGXFSZ ignored: the kernel then refuses the write with EFBIG, which SQLite reports as a
// full disk), which needs no privilege (ARENA_TEST_NO_MOUNT=1 takes that path as root too).

const dir = mkdtempSync(join(tmpdir(), 'arena-full-'));
const small = join(dir, 'small');
const db = join(small, 'full.db');
const MATCH = ['match', 'hanoi-recursive', '--puzzle', 'hanoi', '--discs', '20', '--count', '20', '--seed', '1', '--json'];
let tmpfs = false;
/** Bytes a process may write to one file in the fallback (about the tmpfs's size). */
let fileLimitKiB: number | undefined = 6 * 1024;

function arena(args: string[], limited: boolean): { code: number | null; stdout: string; stderr: string } {
  const node = [process.execPath, join(ROOT, 'bin/arena.js'), ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  // dash's ulimit -f counts 512-byte blocks.
  const cmd = limited && !tmpfs && fileLimitKiB !== undefined ? `trap '' XFSZ; ulimit -f ${fileLimitKiB * 2}; exec ${node}` : `exec ${node}`;
  const r = spawnSync('/bin/sh', ['-c', cmd], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 30 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function rows(file: string): Array<{ scramble_id: number; bot: string; wall_ms: number; move_count: number }> {
  const d = new Database(file, { readonly: true });
  try {
    return d.prepare('SELECT scramble_id, bot, wall_ms, move_count FROM results ORDER BY scramble_id').all() as never;
  } finally {
    d.close();
  }
}

function status(file: string): string {
  const d = new Database(file, { readonly: true });
  try {
    return (d.prepare('SELECT status FROM matches WHERE id = 1').get() as { status: string }).status;
  } finally {
    d.close();
  }
}

describe('full disk - a database that cannot be written stops the match cleanly, and --resume finishes it once', () => {
  let reported: Array<{ scramble: number; bot: string; timeMs: number }> = [];

  beforeAll(() => {
    mkdirSync(small);
    tmpfs = process.getuid?.() === 0 && process.env.ARENA_TEST_NO_MOUNT !== '1' && spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=6m', 'tmpfs', small]).status === 0;
  });

  afterAll(() => {
    if (tmpfs) spawnSync('umount', [small]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('full disk - one plain line with the database and the exact resume command; what was reported is stored', () => {
    const r = arena([...MATCH, '--db', db], true);
    expect(r.stderr).not.toMatch(/internal error|\n\s+at |SqliteError/);
    expect(r.code, r.stderr).toBe(1);
    const report = JSON.parse(r.stdout) as { match: { status: string }; results: Array<{ scramble: number; bot: string; timeMs: number }> };
    const listed = report.match.status === 'running' ? ' (it stays listed as running: there was no room to mark it interrupted)' : '';
    const last = r.stderr.trim().split('\n').at(-1)!;
    // SQLite says ENOSPC as "database or disk is full", the file-size limit's EFBIG as "disk I/O error".
    const reason = tmpfs ? 'database or disk is full' : 'disk I/O error';
    expect(last).toBe(
      `match 1 interrupted: the database ${db} could not be written (${reason}); every result reported above is stored; free some space, then finish it with: arena match --resume 1 --db ${db}${listed}`,
    );
    reported = report.results;
    expect(reported.length).toBeGreaterThan(0);
    expect(reported.length).toBeLessThan(20);
    // Stored exactly as reported: one row per reported result, nothing more, nothing twice.
    const stored = rows(db);
    expect(stored).toHaveLength(reported.length);
    expect(new Set(stored.map((x) => x.scramble_id)).size).toBe(stored.length);
    // Marked interrupted when the disk still took that one write; else left running, which resumes alike.
    expect(['interrupted', 'running']).toContain(status(db));
    expect(report.match.status).toBe(status(db));
    // Any other command that cannot write says so in one line too, not as an internal error. (A full
    // filesystem only: under a file-size limit a small write still fits below the limit.)
    if (tmpfs) {
      const add = arena(['bot', 'add', 'late', '--remote', '--db', db], true);
      expect(add.code).toBe(1);
      expect(add.stderr).toBe(`arena: the database failed: ${reason}\n`);
    }
  }, 180_000);

  it('full disk - after space is freed, --resume plays only what is missing and finishes, each result once', () => {
    const before = rows(db);
    if (tmpfs) expect(spawnSync('mount', ['-o', 'remount,size=256m', small]).status).toBe(0);
    else fileLimitKiB = undefined;
    const r = arena(['match', '--resume', '1', '--db', db, '--json'], false);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { match: { status: string }; results: unknown[] };
    expect(report.match.status).toBe('finished');
    expect(report.results).toHaveLength(20);
    const after = rows(db);
    expect(after).toHaveLength(20);
    expect(new Set(after.map((x) => x.scramble_id)).size).toBe(20);
    // What was stored before the disk filled is kept as it was, not played again.
    for (const b of before) expect(after.find((a) => a.scramble_id === b.scramble_id)).toEqual(b);
    expect(status(db)).toBe('finished');
  }, 180_000);

  it('clean stop - the database is one self-contained file: the .db alone copies and opens with every result', () => {
    const wal = join(small, 'full.db-wal');
    expect(!existsSync(wal) || statSync(wal).size === 0, readdirSync(small).join(', ')).toBe(true);
    const copy = join(dir, 'copy.db');
    copyFileSync(db, copy);
    expect(rows(copy)).toHaveLength(20);
  });

  it('arena backup - a checked copy in one new file; never over an existing file; PostgreSQL points to pg_dump', () => {
    const to = join(dir, 'backup.db');
    const r = arena(['backup', to, '--db', db], false);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^backed up .*full\.db to .*backup\.db \(\d+\.\d MiB, checked\)$/m);
    expect(rows(to)).toEqual(rows(db));
    const again = arena(['backup', to, '--db', db], false);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already exists; name a new file/);
    const pg = arena(['backup', join(dir, 'x.db'), '--db', 'postgres://arena@localhost/arena'], false);
    expect(pg.code).toBe(1);
    expect(pg.stderr).toMatch(/is a PostgreSQL database: back it up with .*pg_dump/);
  }, 60_000);
});
