/**
 * A submitted version made playable on this machine (issue 32, Build 7): fetched from the database by its
 * hash (checked), unpacked by intake into a new folder, built once with the builder, and kept in a local
 * cache (`built/<hash>/` under the submissions folder beside the database) that every later start uses.
 * The submission pipeline builds through here too, so the server and a worker that never saw the version
 * build it the same way from the same bytes.
 */
import { randomBytes } from 'node:crypto';
import { constants, copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { Result } from '../../core/types.ts';
import { ok, reject } from '../../core/types.ts';
import { readBotFolder } from '../../intake/bot-folder.ts';
import { INTAKE_LIMITS, type IntakeLimits } from '../../intake/limits.ts';
import { MANIFEST_FILE, type Manifest } from '../../intake/manifest.ts';
import { unpackArchive } from '../../intake/unpack.ts';
import type { AppContext } from '../context.ts';
import { DEFAULT_BUILDER, keptLog, type BuildRunner } from './build-runner.ts';
import { guardedPaths } from './guarded-paths.ts';
import { fetchVersion } from './version-store.ts';

const HASH = /^[0-9a-f]{64}$/;

/**
 * Where this database's submissions live on this machine: `$ARENA_SUBMISSIONS_DIR` when set, else beside a
 * database file (`<db>.submissions/`, as its snapshots are), else (PostgreSQL, memory) in the user's cache
 * folder. It holds `intake/` (uploads being unpacked), `work/` (a version being fetched, unpacked and built)
 * and `built/<hash>/` (each version built once: the folder a submitted bot plays) with `built/<hash>.json`
 * (its manifest and build log). Versions are content-addressed, so databases may share one.
 */
export function submissionsRoot(ctx: Pick<AppContext, 'dbLocation'>, env: NodeJS.ProcessEnv = process.env): string {
  const given = env.ARENA_SUBMISSIONS_DIR;
  if (given !== undefined && isAbsolute(given)) return given;
  if (isAbsolute(ctx.dbLocation)) return `${ctx.dbLocation}.submissions`;
  return join(homedir(), '.cache', 'puzzle-arena', 'submissions');
}

/** The folder version `hash` is built into on this machine. */
export const builtFolderOf = (ctx: Pick<AppContext, 'dbLocation'>, hash: string): string => join(submissionsRoot(ctx), 'built', hash);

/** A version built on this machine. */
export interface BuiltVersion {
  readonly hash: string;
  /** The built folder: what the bot plays, with the manifest's `run` started in it. */
  readonly folder: string;
  readonly manifest: Manifest;
  /** The build's output, at most 64 KiB. */
  readonly log: string;
  readonly seconds: number;
  /** True when this call built it; false when the local cache had it. */
  readonly built: boolean;
}

/** How to materialize. */
export interface MaterializeOptions {
  readonly builder?: BuildRunner;
  readonly intake?: IntakeLimits;
  readonly signal?: AbortSignal;
}

/** A failed build carries its log. */
export type MaterializeResult = Result<BuiltVersion> | (Result<never> & { readonly log?: string });

/** A fresh name under `dir` for one attempt (two processes never share one). */
const fresh = (dir: string, base: string): string => join(dir, `${base}.${process.pid}.${randomBytes(6).toString('hex')}`);

/** The folder of version `hash` built on this machine: from the local cache, else fetched, checked, unpacked and built now. */
export async function materializeVersion(ctx: AppContext, hash: string, o: MaterializeOptions = {}): Promise<MaterializeResult> {
  if (!HASH.test(hash)) return reject('bad-version', `"${hash}" is not a version (a sha256)`);
  const root = submissionsRoot(ctx);
  const built = builtFolderOf(ctx, hash);
  const cached = readCached(hash, built);
  if (cached) return ok(cached);
  const work = join(root, 'work');
  // Open to others: the build's sandbox reads the unpacked version as a uid of its own.
  mkdirSync(work, { recursive: true, mode: 0o755 });
  mkdirSync(join(root, 'built'), { recursive: true, mode: 0o755 });
  const archive = fresh(work, `${hash}.tar.gz`);
  const unpacked = fresh(work, `${hash}.src`);
  try {
    const fetched = await fetchVersion(ctx, hash, archive);
    if (!fetched.ok) return fetched;
    const opened = await unpackArchive(archive, unpacked, o.intake ?? INTAKE_LIMITS);
    if (!opened.ok) return reject(opened.code, `version ${hash.slice(0, 12)} cannot be unpacked: ${opened.reason}`);
    const bot = readBotFolder(opened.value.folder);
    if (!bot.ok) return bot;
    const dest = fresh(join(root, 'built'), `${hash}.tmp`);
    const made = await (o.builder ?? DEFAULT_BUILDER)({
      source: bot.value.folder,
      dest,
      guarded: guardedPaths(ctx),
      ...(bot.value.manifest.build !== undefined ? { command: bot.value.manifest.build } : {}),
      ...(o.signal ? { signal: o.signal } : {}),
    });
    if (!made.ok) {
      rmSync(dest, { recursive: true, force: true });
      return { ...reject(made.code, `the build failed: ${made.reason}`), ...('log' in made && made.log !== undefined ? { log: keptLog(made.log) } : {}) };
    }
    // The build ran the participant's code: its manifest may say anything now. What is read of it later
    // (the threads a start is given: bot-threads.ts) must be what was submitted, so the submitted file
    // replaces whatever the build left there.
    const manifestAt = join(made.value.folder, MANIFEST_FILE);
    rmSync(manifestAt, { recursive: true, force: true });
    copyFileSync(join(bot.value.folder, MANIFEST_FILE), manifestAt, constants.COPYFILE_EXCL);
    const log = keptLog(made.value.log);
    const meta = { manifest: bot.value.manifest, log, seconds: made.value.seconds };
    // The record first, then the folder (each rename atomic): a cache entry is whole once its folder is there.
    writeFileSync(`${built}.json.${process.pid}`, JSON.stringify(meta));
    renameSync(`${built}.json.${process.pid}`, `${built}.json`);
    try {
      renameSync(made.value.folder, built);
    } catch {
      // Another process built it meanwhile: the same bytes, so theirs is as good; ours goes.
      rmSync(made.value.folder, { recursive: true, force: true });
      const theirs = readCached(hash, built);
      return theirs ? ok(theirs) : reject('build', `version ${hash.slice(0, 12)} could not be put in place at ${built}`);
    }
    return ok({ hash, folder: built, ...meta, built: true });
  } finally {
    rmSync(archive, { force: true });
    rmSync(unpacked, { recursive: true, force: true });
  }
}

/** The cached build of `hash`, when both its folder and its record are there. */
function readCached(hash: string, built: string): BuiltVersion | undefined {
  if (!existsSync(built) || !existsSync(`${built}.json`)) return undefined;
  try {
    const meta = JSON.parse(readFileSync(`${built}.json`, 'utf8')) as { manifest: Manifest; log: string; seconds: number };
    return { hash, folder: built, manifest: meta.manifest, log: meta.log, seconds: meta.seconds, built: false };
  } catch {
    return undefined;
  }
}
