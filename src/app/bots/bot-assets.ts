/**
 * What built-in bots need built before they play at full strength (pattern databases): each bot declares
 * its assets in `bots/<name>/assets.json`, data the arena reads without running any of the bot's code, so
 * a match's start can say in a millisecond which bot would play weakened and the command that fixes it.
 * Every asset is a set of tables (the partition of a sliding board into patterns) that `arena prepare`
 * builds into the shared asset store: the pattern-database cache, which a confined built-in bot sees
 * read-only (sandbox/code-mounts.ts). One registry (this file) for every bot; nothing here knows a bot's name.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import type { PuzzleState, Result, ScrambleSpec } from '../../core/types.ts';
import { ok, reject } from '../../core/types.ts';
import { matchSamples } from '../../referee/preflight.ts';
import { defaultCacheDir } from '../../solvers/sliding/pdb-cache.ts';
import { partPresent, partsOf, type TablePart } from '../../solvers/tables/table-parts.ts';
import { listBuiltinBots } from '../../transport/process/builtin-bots.ts';

/** The declaration file in a built-in bot's folder. */
export const ASSETS_FILE = 'assets.json';

// Up to 8 tiles: the 4×4's 7-8 partition (an 8-tile table is built by the layered search, build-on-thread.ts).
// Said on a line of its own by every door that starts the bot: no control character may start another line.
const printable = z.string().min(1).regex(/^[^\p{Cc}]*$/u, 'no control characters');
const tilesSchema = z.array(z.number().int().min(1).max(24)).min(1).max(8);
const assetSchema = z
  .object({
    /** Unique within the bot, e.g. `sliding-5x5-tables`. */
    id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'an id is lower-case letters, digits and dashes'),
    /** What it is, as the bot's own: "its 24-puzzle tables" (the message says "<bot>: <what> are not built"). */
    what: printable.max(80),
    /** The puzzle classes the bot plays weakened without it, e.g. `sliding 5x5`. */
    classes: z.array(printable.max(40)).min(1).max(16),
    /** Wall time of a whole build on a 2-core machine, measured, in seconds. */
    estimatedSeconds: z.number().positive().max(86_400),
    /** The additive pattern databases of a sliding board: rows, cols and the partition of its tiles. */
    tables: z
      .object({ rows: z.number().int().min(2).max(5), cols: z.number().int().min(2).max(5), partition: z.array(tilesSchema).min(1).max(8) })
      .strict(),
  })
  .strict();
const declarationSchema = z.object({ assets: z.array(assetSchema).max(16) }).strict();

/** One declared asset, with what its tables weigh and which files they are. */
export interface BotAsset {
  readonly bot: string;
  readonly id: string;
  readonly what: string;
  readonly classes: readonly string[];
  readonly estimatedSeconds: number;
  /** Bytes on disk of all its tables. */
  readonly bytes: number;
  readonly parts: readonly TablePart[];
}

/** The base name of a bot as a match names it ("ida-star --weight 2" is ida-star). */
export const baseName = (name: string): string => name.trim().split(/\s+/)[0] ?? name;

/**
 * The assets built-in bot `bot` declares ([] for a bot that declares none). A declaration that does not
 * parse, or whose tables are not a partition the builder takes, is refused with its file and reason.
 */
export function declaredAssets(projectRoot: string, bot: string): Result<BotAsset[]> {
  const file = join(resolve(projectRoot), 'bots', bot, ASSETS_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return ok([]);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return reject('bad-assets', `${file}: not JSON (${(e as Error).message})`);
  }
  const parsed = declarationSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return reject('bad-assets', `${file}: ${issue.path.join('.') || 'the file'}: ${issue.message}`);
  }
  const out: BotAsset[] = [];
  for (const a of parsed.data.assets) {
    const { rows, cols, partition } = a.tables;
    const tiles = partition.flat();
    if (tiles.some((t) => t >= rows * cols) || new Set(tiles).size !== tiles.length) {
      return reject('bad-assets', `${file}: asset ${a.id}: the patterns must be distinct tiles of a ${rows}x${cols} board (1 to ${rows * cols - 1})`);
    }
    if (out.some((o) => o.id === a.id)) return reject('bad-assets', `${file}: asset ${a.id} is declared twice`);
    const parts = partsOf(rows, cols, partition);
    out.push({ bot, id: a.id, what: a.what, classes: a.classes, estimatedSeconds: a.estimatedSeconds, bytes: parts.reduce((s, p) => s + p.bytes, 0), parts });
  }
  return ok(out);
}

/** Every built-in bot's assets, by bot (bots without any are left out). */
export function allDeclaredAssets(projectRoot: string): Result<BotAsset[]> {
  const out: BotAsset[] = [];
  for (const bot of listBuiltinBots(projectRoot)) {
    const d = declaredAssets(projectRoot, bot);
    if (!d.ok) return d;
    out.push(...d.value);
  }
  return ok(out);
}

/** True when every table of the asset is in the store with its full length. */
export const assetReady = (dir: string, asset: BotAsset): boolean => asset.parts.every((p) => partPresent(dir, p));

/** "255 MB", "11.5 MB", "15 kB": the size the message names. */
export function sizeText(bytes: number): string {
  if (bytes >= 100e6) return `${Math.round(bytes / 1e6)} MB`;
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1e3))} kB`;
}

/** "about 12 min", "about 40 s": a declared build time. */
export function buildTimeText(seconds: number): string {
  return seconds >= 90 ? `about ${Math.round(seconds / 60)} min` : `about ${Math.max(1, Math.round(seconds))} s`;
}

/** The line that names a bot's missing asset and the command that builds it. */
export function missingAssetLine(a: BotAsset): string {
  return `${a.bot}: ${a.what} are not built (${sizeText(a.bytes)}, ${buildTimeText(a.estimatedSeconds)} on 2 cores): run arena prepare ${a.bot}`;
}

/**
 * One line per built-in bot of a match whose declared asset for one of the match's classes is not in the
 * store `dir` (see {@link missingAssetLine}); `classes` undefined: an asset for any class (a check of the bot
 * as a whole). Bots are named as a match names them; a registered bot never has a built-in bot's name, so
 * only built-in bots' declarations are read.
 */
export function missingAssetNotices(projectRoot: string, dir: string, bots: readonly string[], classes?: readonly string[]): string[] {
  const lines: string[] = [];
  for (const name of new Set(bots.map(baseName))) {
    const declared = declaredAssets(projectRoot, name);
    // A broken declaration is the bot author's to fix: named, and the match plays on.
    if (!declared.ok) {
      lines.push(`${name}: ${declared.reason}`);
      continue;
    }
    for (const a of declared.value) {
      if ((!classes || a.classes.some((c) => classes.includes(c))) && !assetReady(dir, a)) lines.push(missingAssetLine(a));
    }
  }
  return lines;
}

/** {@link missingAssetNotices} for a match of generated scrambles (`spec`) or of given ones (`states`), in the default store. */
export function matchAssetNotices(projectRoot: string, bots: readonly string[], scrambles: { readonly spec?: ScrambleSpec<string>; readonly states?: readonly PuzzleState[] }): string[] {
  const samples = matchSamples(scrambles, scrambles.states);
  // A spec that does not parse is refused by the match itself, with its reason.
  if (!samples.ok) return [];
  return botAssetNotices(projectRoot, bots, samples.value.map((s) => s.puzzleClass));
}

/**
 * {@link missingAssetNotices} in the default store: what every door that starts a bot for play (match,
 * ladder, worker, bot check) says before it starts it. A notice, never a refusal: the bot plays without.
 */
export function botAssetNotices(projectRoot: string, bots: readonly string[], classes?: readonly string[]): string[] {
  return missingAssetNotices(projectRoot, defaultCacheDir(), bots, classes);
}

/** Says each missing-asset line once per run, however often the same bot starts (a ladder, a worker). */
export interface AssetNotifier {
  /** Says the lines of {@link botAssetNotices} for `bots` in `classes` not said before. */
  tell(bots: readonly string[], classes?: readonly string[]): void;
  /** Whether `line` was said already (so a game's own copy of it can be left out). */
  told(line: string): boolean;
}

/** An {@link AssetNotifier} that says its lines with `say`. */
export function assetNotifier(projectRoot: string, say: (line: string) => void): AssetNotifier {
  const said = new Set<string>();
  return {
    tell(bots, classes) {
      for (const line of botAssetNotices(projectRoot, bots, classes)) {
        if (said.has(line)) continue;
        said.add(line);
        say(line);
      }
    },
    told: (line) => said.has(line),
  };
}
