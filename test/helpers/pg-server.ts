/**
 * A throwaway PostgreSQL server for tests and benchmarks: initdb into a fresh temp dir, start `postgres` on a
 * free loopback port with its unix socket inside that dir, hand out one fresh database per caller, stop and
 * delete everything at the end. One server per test file is the intended use (initdb costs about a second;
 * a database costs tens of milliseconds).
 *
 * Running as root, initdb and postgres refuse to start, so both run as the `postgres` system user (created
 * by Debian's postgresql package) through `runuser`, and the temp dir is handed to that user.
 *
 * The server is started through a small shell guard that stops it as soon as its stdin closes: if the test
 * process dies without cleaning up (a killed vitest worker), the pipe closes and the server goes with it
 * instead of lingering on the machine.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/** Where Debian puts PostgreSQL's server binaries, one folder per major version. */
const PG_LIB = '/usr/lib/postgresql';

/** How long to wait for a server to accept connections before giving up. */
const START_TIMEOUT_MS = 60_000;

/**
 * Server settings for tests: no flushes to disk (only an OS crash could lose data, and the server is thrown
 * away then). synchronous_commit stays on: a commit is written to the WAL before it is acknowledged, so a
 * server killed mid-test (stop('immediate')) keeps every commit a client saw, as a real one would.
 */
const FAST_SETTINGS = ['fsync=off', 'full_page_writes=off'];

/** The user the server's superuser role is called; trust auth on loopback and the socket only. */
const SUPERUSER = 'arena';

export interface PgServerOptions {
  /** Keep fsync and synchronous commit on (benchmarks of real write cost). Default false. */
  readonly durable?: boolean;
  /** `max_connections` (default 200: several worker processes with pools share one server). */
  readonly maxConnections?: number;
}

/** A running throwaway server. */
export interface PgServer {
  readonly port: number;
  /** Folder of the binaries used (e.g. /usr/lib/postgresql/15/bin). */
  readonly binDir: string;
  /** A connection URL for `database` (default `postgres`). */
  url(database?: string): string;
  /** Creates a new empty database with a unique name and returns its URL. */
  createDatabase(prefix?: string): Promise<string>;
  /** Stops the server (fast shutdown by default, `immediate` = as after a crash) keeping its data. */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Starts a stopped server again on the same port and data. */
  start(): Promise<void>;
  /** Stops the server and deletes its folder. Safe to call twice. */
  destroy(): Promise<void>;
}

/** The newest PostgreSQL bin folder on this machine that has a `postgres` binary, or undefined. */
export function findPgBinDir(): string | undefined {
  const fromEnv = process.env.ARENA_PG_BIN;
  if (fromEnv) return fs.existsSync(path.join(fromEnv, 'postgres')) ? fromEnv : undefined;
  let versions: string[];
  try {
    versions = fs.readdirSync(PG_LIB);
  } catch {
    return undefined;
  }
  const found = versions
    .filter((v) => /^\d+$/.test(v) && fs.existsSync(path.join(PG_LIB, v, 'bin', 'postgres')))
    .sort((a, b) => Number(b) - Number(a));
  return found.length > 0 ? path.join(PG_LIB, found[0], 'bin') : undefined;
}

/**
 * True when these tests can get a server. Under CI=true the answer does not matter: the tests run and fail
 * loudly without PostgreSQL (`.ci/run` installs it), they never skip.
 */
export function pgAvailable(): boolean {
  return findPgBinDir() !== undefined;
}

/** Whether PostgreSQL tests should be skipped: only outside CI on a machine without PostgreSQL. */
export function skipPgTests(): boolean {
  if (process.env.CI === 'true') return false;
  if (pgAvailable()) return false;
  console.warn('PostgreSQL not found under /usr/lib/postgresql (apt-get install postgresql): skipping its tests');
  return true;
}

interface RunAs {
  /** Prefix for every server command (runuser as postgres when we are root). */
  readonly prefix: string[];
  readonly uid?: number;
  readonly gid?: number;
}

function runAs(): RunAs {
  if (process.getuid?.() !== 0) return { prefix: [] };
  const r = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const g = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (r.status !== 0 || g.status !== 0) {
    throw new Error('running as root needs the `postgres` system user (apt-get install postgresql creates it)');
  }
  return { prefix: ['runuser', '-u', 'postgres', '--'], uid: Number(r.stdout.trim()), gid: Number(g.stdout.trim()) };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Runs a command to completion; throws with its output on failure. */
function runChecked(argv: string[], what: string): void {
  const r = spawnSync(argv[0], argv.slice(1), { encoding: 'utf8', cwd: os.tmpdir() });
  if (r.status !== 0) throw new Error(`${what} failed (exit ${r.status}): ${(r.stderr || r.stdout || '').trim()}`);
}

const DIR_PREFIX = 'arena-pg-';

/** A left-over dir is one whose server is gone (no postmaster.pid) and that nobody touched for this long. */
const STALE_MS = 30 * 60_000;

/**
 * Deletes folders of servers whose test process was killed (the guard stopped the server, but nobody was left
 * to delete the folder). Only old ones without a running server, so a concurrent test file is never touched.
 */
function sweepStaleDirs(): void {
  const tmp = os.tmpdir();
  for (const name of fs.readdirSync(tmp)) {
    if (!name.startsWith(DIR_PREFIX)) continue;
    const dir = path.join(tmp, name);
    try {
      const old = Date.now() - fs.statSync(dir).mtimeMs > STALE_MS;
      if (old && !fs.existsSync(path.join(dir, 'data', 'postmaster.pid'))) fs.rmSync(dir, { recursive: true, force: true });
    } catch {
      // Raced with its owner deleting it: nothing to do.
    }
  }
}

/** Starts a fresh server. Callers must `destroy()` it (e.g. in afterAll). */
export async function startPgServer(options: PgServerOptions = {}): Promise<PgServer> {
  const binDir = findPgBinDir();
  if (!binDir) throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql (apt-get install postgresql)');
  const as = runAs();
  sweepStaleDirs();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), DIR_PREFIX));
  const dataDir = path.join(dir, 'data');
  if (as.uid !== undefined && as.gid !== undefined) fs.chownSync(dir, as.uid, as.gid);
  try {
    runChecked(
      [...as.prefix, path.join(binDir, 'initdb'), '-D', dataDir, '-U', SUPERUSER, '--auth=trust', '-E', 'UTF8',
        '--locale=C', '--no-sync', '--no-instructions'],
      'initdb',
    );
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }

  const settings = [
    ...(options.durable ? [] : FAST_SETTINGS),
    `max_connections=${options.maxConnections ?? 200}`,
    'listen_addresses=127.0.0.1',
    `unix_socket_directories=${dir}`,
  ];
  let port = 0;
  let proc: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();

  const launch = async (): Promise<void> => {
    const args = ['-D', dataDir, '-p', String(port), ...settings.flatMap((s) => ['-c', s])];
    const pgCmd = [path.join(binDir, 'postgres'), ...args].map(shellQuote).join(' ');
    // The guard: postgres in the background, then one line (or EOF) on stdin says how to stop it: SIGINT is
    // PostgreSQL's fast shutdown, SIGQUIT its crash-like immediate one. EOF comes also when we die.
    // (A background list's stdin is /dev/null unless redirected explicitly, hence fd 3.)
    const guard = `exec 3<&0; ${pgCmd} 3<&- </dev/null & pid=$!; ` +
      `(read -r how <&3; if [ "$how" = immediate ]; then kill -QUIT $pid; else kill -INT $pid; fi) 2>/dev/null & ` +
      `wait $pid; code=$?; exit $code`;
    const argv = [...as.prefix, 'sh', '-c', guard];
    const child = spawn(argv[0], argv.slice(1), { cwd: dir, stdio: ['pipe', 'ignore', 'pipe'] });
    proc = child;
    let log = '';
    exited = new Promise((resolve) => child.once('exit', () => resolve()));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => done(new Error(`postgres did not start in ${START_TIMEOUT_MS} ms: ${log.slice(-2000)}`)), START_TIMEOUT_MS);
      const done = (err?: Error) => {
        clearTimeout(timer);
        child.stderr?.off('data', onData);
        child.off('exit', onExit);
        if (err) reject(err);
        else resolve();
      };
      const onData = (chunk: Buffer) => {
        log += chunk.toString();
        if (log.includes('database system is ready to accept connections')) done();
      };
      const onExit = (code: number | null) => done(new Error(`postgres exited (code ${code}) while starting: ${log.slice(-2000)}`));
      child.stderr?.on('data', onData);
      child.once('exit', onExit);
    });
    // Keep draining its log so a chatty server never blocks on a full pipe.
    child.stderr?.resume();
  };

  const start = async (): Promise<void> => {
    // Another process may take the probed port between the probe and the bind: try a few.
    let lastErr: unknown;
    for (let attempt = 0; attempt < 5; attempt++) {
      if (port === 0 || attempt > 0) port = await freePort();
      try {
        await launch();
        return;
      } catch (err) {
        lastErr = err;
        if (!String(err).includes('could not') && !String(err).includes('in use')) break;
      }
    }
    throw lastErr;
  };

  const restartOnSamePort = async (): Promise<void> => {
    await launch();
  };

  const stop = async (mode: 'fast' | 'immediate' = 'fast'): Promise<void> => {
    const child = proc;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.stdin?.end(mode === 'immediate' ? 'immediate\n' : 'fast\n');
    await exited;
    proc = undefined;
  };

  try {
    await start();
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }

  let counter = 0;
  const url = (database = 'postgres') => `postgres://${SUPERUSER}@127.0.0.1:${port}/${database}`;
  let destroyed = false;
  return {
    get port() {
      return port;
    },
    binDir,
    url,
    async createDatabase(prefix = 'arena') {
      const name = `${prefix}_${process.pid}_${++counter}`;
      const client = new pg.Client({ connectionString: url() });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return url(name);
    },
    stop,
    start: restartOnSamePort,
    async destroy() {
      if (destroyed) return;
      destroyed = true;
      await stop('fast');
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
