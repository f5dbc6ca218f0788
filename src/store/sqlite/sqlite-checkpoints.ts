/**
 * WAL checkpoints on a thread of their own once a connection writes results quickly. SQLite checkpoints on
 * the committing connection by default: each 1,000 pages of log, that commit also copies them into the
 * database and, under synchronous=NORMAL, waits for two fsyncs. On the referee's thread that stall lands
 * inside a bot's timed solve (the answer waits to be read, and the wait is on the bot's clock), and with a
 * fast bot it came every ~300 results (a committed result is 3–4 pages), 2–3 ms each on this machine. So after {@link OWN_THREAD_AFTER_ROWS} results this
 * connection stops checkpointing (wal_autocheckpoint = 0) and asks a worker thread, with its own connection
 * to the same file, for a PASSIVE checkpoint every {@link ROWS_PER_CHECKPOINT} results (writers never wait
 * for it), and ends the log itself every {@link ROWS_PER_OWN_CHECKPOINT}, when the thread has caught up.
 * A short match (Korf's 100) never starts the thread. If the thread cannot start or fails, the connection
 * checkpoints itself again, as before; closing the store ends the thread first, so the store's own last
 * checkpoint is that of the last connection.
 */
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';

/** Results written through a connection before its checkpoints move to a thread. */
export const OWN_THREAD_AFTER_ROWS = 1000;
/** Results between two checkpoints asked of the thread (a result is about 3–4 pages of log). */
export const ROWS_PER_CHECKPOINT = 100;
/**
 * Results between two checkpoints of the connection's own, which end the log: the thread's never catch up
 * with a writer that commits while they run, and SQLite starts the log again from its beginning only after
 * a checkpoint that left nothing behind. Done when the thread has just caught up, it copies only what came
 * since; its cost is the two fsyncs (about 1.2 ms here, against 2.6 ms for a whole 1,000-page checkpoint
 * every ~300 results), and the log stays under ~20 MB.
 */
export const ROWS_PER_OWN_CHECKPOINT = 1000;
/** SQLite's default wal_autocheckpoint, in force until the thread runs and again if it fails. */
const INLINE_PAGES = 1000;
/** How long closing waits for the thread to close its connection before ending it. */
const CLOSE_WAIT_MS = 2000;

// The thread: one connection, one PASSIVE checkpoint per request, an answer after each (its busy flag).
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 1000');
parentPort.on('message', (m) => {
  if (m === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  let failed;
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (e) {
    failed = String(e && e.message);
  }
  parentPort.postMessage(failed === undefined ? 'done' : { failed });
});
parentPort.postMessage('ready');
`;

/** The checkpoints of one connection (see the module comment). */
export class SqliteCheckpoints {
  private rows = 0;
  private sinceAsked = 0;
  private sinceOwn = 0;
  private worker: Worker | undefined;
  private state: 'inline' | 'starting' | 'thread' | 'inline-again' = 'inline';
  private asking = false;
  private exited: Promise<void> | undefined;

  constructor(
    private readonly db: Database.Database,
    /** The module the thread loads for SQLite: better-sqlite3 as this process resolves it (tests pass another). */
    private readonly sqliteModule = createRequire(import.meta.url).resolve('better-sqlite3'),
  ) {}

  /** Where checkpoints are done now: on this connection, or on the thread. */
  get where(): 'connection' | 'thread' {
    return this.state === 'thread' ? 'thread' : 'connection';
  }

  /** Counts `n` results committed through the connection; starts the thread, or asks it for a checkpoint. */
  wrote(n: number): void {
    this.rows += n;
    if (this.state === 'inline') {
      if (this.rows >= OWN_THREAD_AFTER_ROWS) this.start();
      return;
    }
    if (this.state !== 'thread') return;
    this.sinceAsked += n;
    this.sinceOwn += n;
    // One at a time: on a disk slower than the writer the log grows until the one in progress is done.
    if (this.asking || this.sinceAsked < ROWS_PER_CHECKPOINT) return;
    this.sinceAsked = 0;
    this.asking = true;
    this.worker!.postMessage('checkpoint');
  }

  /** Ends the thread (its connection closed first); the connection checkpoints itself again. */
  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.fallBack();
    worker.postMessage('close');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((done) => (timer = setTimeout(done, CLOSE_WAIT_MS)));
    await Promise.race([this.exited, late]);
    clearTimeout(timer);
    await worker.terminate();
  }

  private start(): void {
    // Only a file in WAL mode has a log to checkpoint (an in-memory database has neither).
    if (this.db.memory || String(this.db.pragma('journal_mode', { simple: true })).toLowerCase() !== 'wal') {
      this.state = 'inline-again';
      return;
    }
    this.state = 'starting';
    let worker: Worker;
    try {
      worker = new Worker(THREAD, { eval: true, workerData: { module: this.sqliteModule, file: resolve(this.db.name) } });
    } catch {
      this.state = 'inline-again';
      return;
    }
    // It never keeps the process alive; close() ends it when the store closes.
    worker.unref();
    this.worker = worker;
    this.exited = new Promise((done) => worker.once('exit', () => done()));
    worker.on('message', (m: unknown) => {
      if (m === 'ready' && this.state === 'starting') {
        this.state = 'thread';
        this.db.pragma('wal_autocheckpoint = 0');
      } else if (m === 'done') {
        this.asking = false;
        // Right after the thread's: only what was committed while it ran is left to copy.
        if (this.sinceOwn >= ROWS_PER_OWN_CHECKPOINT && this.state === 'thread' && this.db.open) {
          this.sinceOwn = 0;
          try {
            this.db.pragma('wal_checkpoint(PASSIVE)');
          } catch {
            // Left to the next one (or to the close); the log only grows meanwhile.
          }
        }
      } else if (typeof m === 'object' && m !== null && 'failed' in m) {
        this.fallBack();
      }
    });
    worker.on('error', () => this.fallBack());
    worker.once('exit', () => this.fallBack());
  }

  /** Back to checkpoints on the connection (the thread failed, ended or is closing). */
  private fallBack(): void {
    if (this.state === 'inline-again') return;
    const was = this.state;
    this.state = 'inline-again';
    if (was === 'thread' && this.db.open) this.db.pragma(`wal_autocheckpoint = ${INLINE_PAGES}`);
  }
}
