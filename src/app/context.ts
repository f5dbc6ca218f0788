/**
 * What every application service runs against. An entry point (CLI command, web server, worker) opens one
 * context, calls services with it, and closes it; services never open a database themselves.
 */
import type { Result } from '../core/types.ts';
import { reject } from '../core/types.ts';
import type { Clock } from '../protocol/link.ts';
import type { OptimumOracle } from '../solvers/oracle.ts';
import { defaultDbPath, describeDbLocation, isPgUrl, NEEDS_PG, normalizeDbLocation, openStoreAt } from '../store/open.ts';
import type { Store } from '../store/types.ts';

export { databaseFailure, writeRemedy } from '../store/failure.ts';
import { systemClock } from '../transport/system-clock.ts';
import { PROJECT_ROOT } from './project-root.ts';
import { setUpSealing, type Sealing } from './seal-keys.ts';

/** The open store and where the project's built-in bots and presets live. */
export interface AppContext {
  readonly store: Store;
  /** Where the store is (a file path, or a URL without its password), for messages. */
  readonly dbLocation: string;
  readonly projectRoot: string;
  readonly clock: Clock;
  /** Makes the exact oracle of a match; default the sliding oracle (tests pass a scripted one). */
  readonly oracle?: () => OptimumOracle;
  /** Whether what this process writes is sealed (src/app/seal-keys.ts); absent: not looked at (tests). */
  readonly sealing?: Sealing;
  /** The location opened (a path, or the URL with its password), which names its key file. */
  readonly location?: string;
}

/** Where to open a context. */
export interface OpenOptions {
  /** `--db`: a database file or a postgres:// URL; default ARENA_DB, else leaderboard.db in the project root. */
  readonly db?: string;
  readonly projectRoot?: string;
  readonly env?: NodeJS.ProcessEnv;
  /**
   * Sealing: the database's key is used when this machine has it; with `claim`, a database without a key
   * gets one now (the commands that record results: a match, a worker). `keyFile` names the key instead of
   * the location.
   */
  readonly seal?: { readonly claim: boolean; readonly keyFile?: string };
  /** The command needs the distributed queue (a PostgreSQL database): anything else is refused before it is opened, so no file or key is made. */
  readonly queue?: boolean;
}

/** An open context; `close` releases the store. */
export interface OpenContext extends AppContext {
  close(): Promise<void>;
}

/** Opens the results database (created and migrated on first use) as a context. */
export async function openContext(o: OpenOptions = {}): Promise<Result<OpenContext>> {
  const projectRoot = o.projectRoot ?? PROJECT_ROOT;
  const location = o.db ? normalizeDbLocation(o.db) : defaultDbPath(projectRoot, o.env);
  const dbLocation = describeDbLocation(location);
  if (o.queue && !isPgUrl(location)) return reject('no-queue', NEEDS_PG);
  let store: Store;
  try {
    store = await openStoreAt(location);
  } catch (e) {
    return reject('db-open', `cannot open database ${dbLocation}: ${(e as Error).message}`);
  }
  let sealing: Sealing;
  try {
    ({ sealing } = await setUpSealing(store, location, { claim: o.seal?.claim ?? false, ...(o.seal?.keyFile ? { keyFile: o.seal.keyFile } : {}), ...(o.env ? { env: o.env } : {}) }));
  } catch (e) {
    await store.close();
    return reject('db-open', `cannot open database ${dbLocation}: ${(e as Error).message.split('\n')[0]}`);
  }
  return { ok: true, value: { store, dbLocation, location, projectRoot, clock: systemClock, sealing, close: () => store.close() } };
}

