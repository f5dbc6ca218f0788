/**
 * Where a submitted bot plays on this machine: its registered version built in this machine's cache
 * (materialize-version.ts). On the machine that built it, that is the folder it was registered with; another
 * machine (a PostgreSQL worker, or one with its own ARENA_SUBMISSIONS_DIR), or this one after its build
 * folder was removed, builds the registered version from the database and plays that: the source is the
 * registered version, checked by its hash.
 */
import { existsSync } from 'node:fs';
import type { Result } from '../../core/types.ts';
import { ok, reject } from '../../core/types.ts';
import { snapshotFolder } from '../../sandbox/snapshot/store.ts';
import type { BotRecord } from '../../store/types.ts';
import type { AppContext } from '../context.ts';
import { builtFolderOf, materializeVersion } from './materialize-version.ts';
import { rivalFolders, snapshotStore, takeBotSnapshot, type PlayedSnapshot } from './bot-snapshot.ts';

/** A submitted bot built here in another folder than its registration's, with the snapshot of that folder. */
export interface LocalBuild {
  readonly cwd: string;
  readonly snapshot: PlayedSnapshot;
}

/**
 * For a submitted bot: its version built on this machine, when that is another folder than the registered
 * one. Undefined when nothing is to be done (not submitted, or it plays where it was registered, rebuilt
 * there first if its folder was gone).
 */
export async function localBuildOf(ctx: AppContext, reg: BotRecord): Promise<Result<LocalBuild | undefined>> {
  if (reg.kind !== 'command' || reg.source === undefined) return ok(undefined);
  if (reg.cwd === builtFolderOf(ctx, reg.source) && existsSync(reg.cwd)) return ok(undefined);
  const built = await materializeVersion(ctx, reg.source);
  if (!built.ok) return built;
  if (built.value.folder === reg.cwd) return ok(undefined);
  const rivals = await rivalFolders(ctx, reg.name);
  const taken = takeBotSnapshot(ctx, reg.cmd ?? '', built.value.folder, rivals);
  if (!taken.ok) return taken;
  if (!taken.value) return reject('snapshot', `its build ${built.value.folder} cannot be snapshotted`);
  const path = snapshotFolder(snapshotStore(ctx), taken.value.snapshot, built.value.folder);
  if (!path.ok) return path;
  return ok({ cwd: built.value.folder, snapshot: { hash: taken.value.snapshot, path: path.value, runtime: taken.value.runtime, rivals } });
}
