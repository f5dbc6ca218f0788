/** The Store implementations the contract suite runs against, each opened fresh per test. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createMemoryStore } from '../../src/store/memory-store.ts';
import { openPgStore } from '../../src/store/pg-store.ts';
import { openSqliteStore } from '../../src/store/sqlite-store.ts';
import type { Store } from '../../src/store/types.ts';
import { startPgServer, type PgServer } from './pg-server.ts';

/** One implementation under test: a fresh store per test, cleaned up afterwards. */
export interface Impl {
  readonly name: string;
  open(): Store | Promise<Store>;
  cleanup(): void | Promise<void>;
  /** After the last test (stops a server). */
  done?(): Promise<void>;
}

export function sqliteImpl(): Impl {
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

export const memoryImpl: Impl = { name: 'memory store', open: createMemoryStore, cleanup() {} };

/** One throwaway PostgreSQL server for the file, a fresh database per test. */
export function pgImpl(): Impl {
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
