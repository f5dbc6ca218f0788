/**
 * Where snapshots live and how a start finds its own. The store sits beside the database
 * (`<db>.snapshots/`), a folder no sandbox shows; a database that is not a file (PostgreSQL, memory) keeps
 * them in the referee's cache folder. A machine that lacks a snapshot (a worker elsewhere) takes it again
 * from the registered folder and plays it only if it hashes the same: what plays is always what was
 * registered.
 */
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { Result } from '../../core/types.ts';
import { ok, reject } from '../../core/types.ts';
import { SNAPSHOT_LIMITS, takeSnapshot, type SnapshotLimits } from './copy.ts';

const HASH = /^[0-9a-f]{64}$/;

/** The snapshot store of the database at `dbLocation` (a path, or a URL / ':memory:'). */
export function snapshotStoreOf(dbLocation: string): string {
  if (isAbsolute(dbLocation)) return `${dbLocation}.snapshots`;
  return join(homedir(), '.cache', 'puzzle-arena', 'snapshots');
}

/** The folder of snapshot `hash` in `store`, taken again from `folder` when this machine lacks it. */
export function snapshotFolder(store: string, hash: string, folder: string, limits: SnapshotLimits = SNAPSHOT_LIMITS): Result<string> {
  if (!HASH.test(hash)) return reject('snapshot', `the registered snapshot "${hash}" is not a sha256`);
  const path = join(store, hash);
  try {
    if (statSync(path).isDirectory()) return ok(path);
  } catch {
    // not on this machine: take it again below
  }
  const again = takeSnapshot(folder, store, { limits });
  if (!again.ok) return again;
  if (again.value.hash !== hash) {
    return reject('snapshot', `its folder ${folder} changed since it was registered (snapshot ${hash.slice(0, 12)}, now ${again.value.hash.slice(0, 12)}), and this machine has no copy of the registered one`);
  }
  return ok(again.value.path!);
}
