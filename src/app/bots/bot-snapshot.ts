/**
 * What a registered command bot plays and how it starts, fixed when it is registered (and when the ladder
 * sees its folder change): its folder, checked by its real path, is copied into the snapshot store beside
 * the database (src/sandbox/snapshot), and its runtime is resolved from paths it cannot write
 * (src/sandbox/runtime.ts). Both are stored with the registration; a start mounts the snapshot read-only
 * where the folder was and checks the runtime again, so nothing the bot writes decides how it starts.
 */
import { resolve } from 'node:path';
import type { Result } from '../../core/types.ts';
import { ok, reject } from '../../core/types.ts';
import { checkFolder } from '../../sandbox/folder.ts';
import { resolveRuntime } from '../../sandbox/runtime.ts';
import { isWithin, realOf } from '../../sandbox/trusted-path.ts';
import { takeSnapshot, type SnapshotLimits } from '../../sandbox/snapshot/copy.ts';
import { snapshotFolder, snapshotStoreOf } from '../../sandbox/snapshot/store.ts';
import type { BotRecord, StoredRuntime } from '../../store/types.ts';
import type { AppContext } from '../context.ts';
import { guardedPaths } from './guarded-paths.ts';
import { splitCommand } from './split-command.ts';

/** A snapshot taken for a bot: its hash and the runtime resolved against it. */
export interface BotSnapshot {
  readonly snapshot: string;
  readonly runtime: StoredRuntime;
}

/** Where this database keeps its snapshots. */
export const snapshotStore = (ctx: Pick<AppContext, 'dbLocation'>): string => snapshotStoreOf(ctx.dbLocation);


/** The folders of the other registered command bots (a runtime may show none of them). */
export async function rivalFolders(ctx: Pick<AppContext, 'store'>, self: string): Promise<string[]> {
  return (await ctx.store.listBots()).filter((b) => b.name !== self && b.cwd !== undefined).map((b) => b.cwd!);
}

/**
 * Snapshots `cwd` and resolves `cmd`'s runtime against the snapshot. Refused with one line when the folder
 * is no place for a bot (checkFolder), breaks a snapshot limit, or its runtime is not trusted. A folder of
 * the project checkout has no snapshot (undefined): its code is shown read-only where it is.
 */
export function takeBotSnapshot(
  ctx: Pick<AppContext, 'projectRoot' | 'dbLocation'>,
  cmd: string,
  cwd: string,
  rivals: readonly string[],
  limits?: SnapshotLimits,
): Result<BotSnapshot | undefined> {
  const guarded = guardedPaths(ctx);
  const folder = checkFolder(cwd, guarded);
  // The checkout's own code (a fixture run from it) is shown read-only as it is (code-mounts.ts).
  if (!folder.ok) return isWithin(realOf(cwd) ?? resolve(cwd), realOf(ctx.projectRoot) ?? ctx.projectRoot) ? ok(undefined) : folder;
  const snap = takeSnapshot(folder.value, snapshotStore(ctx), limits ? { limits } : {});
  if (!snap.ok) return snap;
  const argv = splitCommand(cmd);
  if (!argv.ok) return argv;
  const runtime = resolveRuntime(argv.value[0] ?? '', { folder: resolve(cwd), content: snap.value.path!, path: process.env.PATH ?? '', guarded: [...guarded, ...rivals] });
  if (!runtime.ok) return reject(runtime.code, `its runtime cannot be trusted: ${runtime.reason}`);
  return ok({ snapshot: snap.value.hash, runtime: runtime.value });
}

/** What a start of a registered command bot with a folder needs: its snapshot on this machine and its runtime. */
export interface PlayedSnapshot {
  readonly hash: string;
  /** The snapshot's folder on this machine, mounted read-only at the bot's folder. */
  readonly path: string;
  readonly runtime?: StoredRuntime;
  readonly rivals: readonly string[];
}

/**
 * The snapshot a registered bot plays. A bot registered before snapshots existed gets one now (stored, so
 * every later start plays the same); a machine without the copy takes it again and needs the same hash.
 */
export async function playedSnapshot(ctx: Pick<AppContext, 'store' | 'projectRoot' | 'dbLocation'>, reg: BotRecord): Promise<Result<PlayedSnapshot | undefined>> {
  if (reg.kind !== 'command' || reg.cwd === undefined) return ok(undefined);
  const rivals = await rivalFolders(ctx, reg.name);
  let { snapshot, runtime } = reg;
  if (snapshot === undefined) {
    const taken = takeBotSnapshot(ctx, reg.cmd ?? '', reg.cwd, rivals);
    if (!taken.ok) return taken;
    if (!taken.value) return ok(undefined);
    await ctx.store.setBotSnapshot(reg.name, taken.value.snapshot, taken.value.runtime);
    ({ snapshot, runtime } = taken.value);
  }
  const path = snapshotFolder(snapshotStore(ctx), snapshot, reg.cwd);
  if (!path.ok) return path;
  return ok({ hash: snapshot, path: path.value, rivals, ...(runtime ? { runtime } : {}) });
}
