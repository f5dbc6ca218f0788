import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OWN_THREAD_AFTER_ROWS, ROWS_PER_CHECKPOINT, ROWS_PER_OWN_CHECKPOINT, SqliteCheckpoints } from '../../src/store/sqlite/sqlite-checkpoints.ts';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import type { NewMatch, ResultRecord } from '../../src/store/types.ts';

const SCRAMBLES = 6000;

function match(n: number): NewMatch {
  return {
    config: null,
    seed: '1',
    generatorVersion: 'g',
    bots: ['a'],
    scrambles: Array.from({ length: n }, (_, index) => ({ index, state: { kind: 'sliding' as const, rows: 2, cols: 2, tiles: [1, 2, 0, 3] }, puzzleClass: 'sliding 2x2', bound: { lowerBound: 2 } })),
  };
}

const result = (scrambleId: number): ResultRecord => ({ scrambleId, bot: 'a', verdict: 'solved', moveCount: 2, moves: 'LU', wallMs: 0.1, cpuMs: 0.05 });

/** The WAL's size in bytes (0 when there is none). */
function walBytes(file: string): number {
  try {
    return fs.statSync(`${file}-wal`).size;
  } catch {
    return 0;
  }
}

function autoCheckpoint(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return db.pragma('wal_autocheckpoint', { simple: true }) as number;
  } finally {
    db.close();
  }
}

const until = async (ok: () => boolean, ms = 5000): Promise<void> => {
  const end = Date.now() + ms;
  while (!ok() && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
};

describe('SqliteCheckpoints', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-checkpoints-'));
    file = path.join(dir, 'arena.db');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('SqliteCheckpoints - a fast writer hands its checkpoints to a thread that keeps the log small, every result kept', async () => {
    const store = openSqliteStore(file);
    const m = await store.createMatch(match(SCRAMBLES));
    const ids = (await store.listScrambles(m.id)).map((s) => s.id);
    let biggest = 0;
    for (let i = 0; i < SCRAMBLES; i++) {
      await store.recordResult(result(ids[i]!));
      if (i % 50 === 0) {
        // Let the thread's answers in, as a match's turns do.
        await new Promise((r) => setImmediate(r));
        biggest = Math.max(biggest, walBytes(file));
      }
    }
    // Without checkpoints 6,000 one-result commits leave ~50 MB of log (3–4 pages each), and as much with
    // only the thread's (they never catch up with a writer); the connection's own, every
    // ROWS_PER_OWN_CHECKPOINT results, let the log start again, so it stays near that many results' worth.
    expect((ROWS_PER_OWN_CHECKPOINT + ROWS_PER_CHECKPOINT) * 4 * 4096).toBeLessThan(32 << 20);
    expect(biggest).toBeLessThan(32 << 20);
    expect((await store.listSummaries(m.id)).length).toBe(SCRAMBLES);
    await store.close();
    // The thread closed first, so the store's connection was the last: its checkpoint emptied the log.
    expect(walBytes(file)).toBe(0);
    const db = new Database(file, { readonly: true });
    expect((db.prepare('SELECT count(*) AS n FROM results').get() as { n: number }).n).toBe(SCRAMBLES);
    db.close();
  }, 60_000);

  it('SqliteCheckpoints - the connection stops checkpointing only while the thread runs, and again when it ends', async () => {
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE t (x INTEGER)');
    const checkpoints = new SqliteCheckpoints(db);
    checkpoints.wrote(OWN_THREAD_AFTER_ROWS - 1);
    expect(checkpoints.where).toBe('connection');
    checkpoints.wrote(1);
    await until(() => checkpoints.where === 'thread');
    expect(checkpoints.where).toBe('thread');
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    await checkpoints.close();
    expect(checkpoints.where).toBe('connection');
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    db.close();
    expect(autoCheckpoint(file)).toBe(1000);
  }, 30_000);

  it('SqliteCheckpoints - a thread that cannot start leaves the checkpoints on the connection', async () => {
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    const checkpoints = new SqliteCheckpoints(db, path.join(dir, 'no-such-module.js'));
    checkpoints.wrote(OWN_THREAD_AFTER_ROWS);
    // The thread fails to load its SQLite module and ends; nothing was handed to it.
    await new Promise((r) => setTimeout(r, 500));
    expect(checkpoints.where).toBe('connection');
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    checkpoints.wrote(ROWS_PER_CHECKPOINT);
    await checkpoints.close();
    db.close();
  }, 30_000);

  it('SqliteCheckpoints - an in-memory database starts no thread', async () => {
    const db = new Database(':memory:');
    const checkpoints = new SqliteCheckpoints(db);
    checkpoints.wrote(OWN_THREAD_AFTER_ROWS * 2);
    expect(checkpoints.where).toBe('connection');
    await checkpoints.close();
    db.close();
  });
});
