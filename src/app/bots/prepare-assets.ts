/**
 * `arena prepare`: builds what built-in bots declare they need (bot-assets.ts) into the shared asset store,
 * outside any timed path. Each table is its own file, built on a thread of its own (as many at once as
 * `threads`) and renamed into place only once whole, so an interrupted run keeps every table it finished
 * and the next run builds only the rest; a table already there is kept when its checksum holds, and built
 * again when it does not.
 */
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import type { Result } from '../../core/types.ts';
import { ok, reject } from '../../core/types.ts';
import { defaultCacheDir } from '../../solvers/sliding/pdb-cache.ts';
import { buildBigPart, buildPartOnThread, LAYERED_FROM_TILES } from '../../solvers/tables/build-on-thread.ts';
import { partIntact, removeStaleTemps, type TablePart } from '../../solvers/tables/table-parts.ts';
import { listBuiltinBots } from '../../transport/process/builtin-bots.ts';
import { allDeclaredAssets, declaredAssets, type BotAsset } from './bot-assets.ts';
import { nearestName } from './bot-names.ts';
import { PROJECT_ROOT } from '../project-root.ts';

/** What to prepare, and where. */
export interface PrepareOptions {
  /** Default: this checkout. */
  readonly projectRoot?: string;
  /** The asset store; default the pattern-database cache (.cache/pdb, or ARENA_CACHE_DIR). */
  readonly dir?: string;
  /** Built-in bots by name; empty with `all`: every bot that declares assets. */
  readonly bots: readonly string[];
  readonly all?: boolean;
  /** Tables built at once (one thread each). */
  readonly threads: number;
  readonly signal?: AbortSignal;
  /** Called as the build goes (a progress bar, an ETA). */
  onProgress?(p: PrepareProgress): void;
  /** Called when a table is in place (built now) or found intact (kept). */
  onPart?(p: { readonly part: TablePart; readonly kept: boolean; readonly ms: number }): void;
}

/** How far the whole run has got, in table entries (bytes) over every table it builds. */
export interface PrepareProgress {
  readonly done: number;
  readonly total: number;
}

/** One asset after the run. */
export interface PreparedAsset {
  readonly bot: string;
  readonly id: string;
  readonly what: string;
  readonly bytes: number;
  /** ready: all its tables are in place (`built` of them now); interrupted or failed: some are missing. */
  readonly status: 'ready' | 'interrupted' | 'failed';
  readonly built: readonly string[];
  readonly kept: readonly string[];
  readonly missing: readonly string[];
  readonly reason?: string;
}

/** The outcome of `arena prepare`. */
export interface PrepareOutcome {
  readonly dir: string;
  readonly assets: readonly PreparedAsset[];
  /** Built-in bots that were named and declare nothing. */
  readonly nothingToDo: readonly string[];
  readonly seconds: number;
}

/** The assets the options name: each named bot's (an unknown name refused with a "did you mean"), or all. */
function selected(o: PrepareOptions & { readonly projectRoot: string }): Result<{ assets: BotAsset[]; nothingToDo: string[] }> {
  if (o.all && o.bots.length > 0) return reject('bad-options', 'name bots or give --all, not both');
  if (o.all) {
    const all = allDeclaredAssets(o.projectRoot);
    return all.ok ? ok({ assets: all.value, nothingToDo: [] }) : all;
  }
  if (o.bots.length === 0) return reject('bad-options', 'name the built-in bots to prepare (e.g. arena prepare pdb-beam), or give --all');
  const known = listBuiltinBots(o.projectRoot);
  const assets: BotAsset[] = [];
  const nothingToDo: string[] = [];
  for (const bot of new Set(o.bots)) {
    if (!known.includes(bot)) {
      const near = nearestName(bot, known);
      return reject('unknown-bot', `${bot} is not a built-in bot${near ? ` (did you mean ${near}?)` : ''}; only built-in bots declare assets`);
    }
    const d = declaredAssets(o.projectRoot, bot);
    if (!d.ok) return d;
    if (d.value.length === 0) nothingToDo.push(bot);
    assets.push(...d.value);
  }
  return ok({ assets, nothingToDo });
}

/** Builds every missing table of the selected assets; resolves with each asset's state afterwards. */
export async function prepareAssets(options: PrepareOptions): Promise<Result<PrepareOutcome>> {
  const t0 = Date.now();
  const o = { ...options, projectRoot: options.projectRoot ?? PROJECT_ROOT, dir: options.dir ?? defaultCacheDir() };
  const chosen = selected(o);
  if (!chosen.ok) return chosen;
  try {
    mkdirSync(o.dir, { recursive: true, mode: 0o755 });
    // Confined bots (uids of their own) must be able to enter it whatever the umask made of it.
    if ((statSync(o.dir).mode & 0o005) !== 0o005) chmodSync(o.dir, 0o755);
  } catch (e) {
    return reject('io', `cannot make the asset store ${o.dir}: ${(e as Error).message}`);
  }
  removeStaleTemps(o.dir);
  // A table two bots share (or two assets) is checked and built once.
  const parts = new Map<string, TablePart>();
  for (const a of chosen.value.assets) for (const p of a.parts) parts.set(p.file, p);
  const kept = new Set<string>();
  const todo: TablePart[] = [];
  for (const p of parts.values()) {
    const t = Date.now();
    if (partIntact(o.dir, p)) {
      kept.add(p.file);
      o.onPart?.({ part: p, kept: true, ms: Date.now() - t });
    } else todo.push(p);
  }
  // The biggest first, so the threads finish close together.
  todo.sort((a, b) => b.entries - a.entries);
  const total = todo.reduce((s, p) => s + p.entries, 0);
  const doneOf = new Map<string, number>();
  const report = (): void => o.onProgress?.({ done: [...doneOf.values()].reduce((s, n) => s + n, 0), total });
  const built = new Set<string>();
  const failed = new Map<string, string>();
  // Builds one table with `build` and keeps count of what it gave.
  const buildOne = async (p: TablePart, build: (progress: (done: number) => void) => Promise<Result<void>>): Promise<void> => {
    const t = Date.now();
    const r = await build((done) => (doneOf.set(p.file, done), report()));
    if (r.ok) {
      built.add(p.file);
      doneOf.set(p.file, p.entries);
      report();
      o.onPart?.({ part: p, kept: false, ms: Date.now() - t });
    } else if (r.code !== 'interrupted') failed.set(p.file, r.reason);
  };
  // A big table takes every thread for itself (its layers are shared out), before the small ones' lanes.
  for (const p of todo.filter((t) => t.tiles.length >= LAYERED_FROM_TILES)) {
    if (o.signal?.aborted) break;
    await buildOne(p, (progress) => buildBigPart(p, o.dir, o.threads, progress, o.signal));
  }
  const small = todo.filter((t) => t.tiles.length < LAYERED_FROM_TILES);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < small.length && !o.signal?.aborted) {
      const p = small[next++]!;
      await buildOne(p, (progress) => buildPartOnThread(p, o.dir, progress, o.signal));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(o.threads, small.length)) }, lane));
  const assets = chosen.value.assets.map((a): PreparedAsset => {
    const files = a.parts.map((p) => p.file);
    const missing = files.filter((f) => !built.has(f) && !kept.has(f));
    const reason = files.map((f) => failed.get(f)).find((x) => x !== undefined);
    return {
      bot: a.bot,
      id: a.id,
      what: a.what,
      bytes: a.bytes,
      status: missing.length === 0 ? 'ready' : reason !== undefined ? 'failed' : 'interrupted',
      built: files.filter((f) => built.has(f)),
      kept: files.filter((f) => kept.has(f)),
      missing,
      ...(reason !== undefined ? { reason } : {}),
    };
  });
  return ok({ dir: o.dir, assets, nothingToDo: chosen.value.nothingToDo, seconds: (Date.now() - t0) / 1000 });
}
