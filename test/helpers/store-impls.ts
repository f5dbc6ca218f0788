/**
 * Every Store implementation, each opened fresh per test, for contract suites that must hold on all of them:
 * the in-memory store, SQLite on a real file in a temp dir, and PostgreSQL on a throwaway server the suite
 * starts (never skipped under CI=true).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createMemoryStore } from '../../src/store/memory/memory-store.ts';
import { openPgStore } from '../../src/store/pg/pg-store.ts';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import type { Store } from '../../src/store/types.ts';
import { skipPgTests, startPgServer, type PgServer } from './pg-server.ts';

/** One implementation under test: a fresh store per test, cleaned up afterwards. */
export interface StoreImpl {
  readonly name: string;
  open(): Store | Promise<Store>;
  cleanup(): void | Promise<void>;
  /** After the last test (stops a server). */
  done?(): Promise<void>;
}

function sqliteImpl(): StoreImpl {
  let dir = '';
  return {
    name: 'sqlite store (file)',
    open() {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-store-'));
      return openSqliteStore(path.join(dir, 'test.db'));
    },
    cleanup() {
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function pgImpl(): StoreImpl {
  let server: Promise<PgServer> | undefined;
  return {
    name: 'postgres store',
    async open() {
      server ??= startPgServer();
      return openPgStore(await (await server).createDatabase('contract'));
    },
    cleanup() {},
    async done() {
      if (server) await (await server).destroy();
    },
  };
}

/** The implementations of this machine (PostgreSQL unless it cannot be had outside CI). */
export function storeImpls(): StoreImpl[] {
  return [{ name: 'memory store', open: createMemoryStore, cleanup() {} }, sqliteImpl(), ...(skipPgTests() ? [] : [pgImpl()])];
}
