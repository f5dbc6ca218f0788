/**
 * Built-in bots: every folder bots/<name>/ holding a main.ts is a bot program run through tsx. The referee
 * spawns it with the same Node binary that runs the referee, so no PATH lookup is involved.
 */
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { compiledPath } from '../../runtime/source-tree.ts';

/** Bot names are folder names; refuse anything that could escape bots/. */
const NAME = /^[a-z0-9][a-z0-9._-]*$/i;

/**
 * Absolute path of tsx's ESM loader. Resolved from the project root first (the bots' own node_modules),
 * then from this file, so it works whatever the current directory is.
 */
export function tsxLoaderPath(projectRoot: string): string | undefined {
  for (const base of [join(resolve(projectRoot), 'package.json'), fileURLToPath(import.meta.url)]) {
    try {
      return createRequire(base).resolve('tsx');
    } catch {
      // Not resolvable from here; try the next base, then the known file location.
    }
  }
  const direct = join(resolve(projectRoot), 'node_modules', 'tsx', 'dist', 'loader.mjs');
  return existsSync(direct) ? direct : undefined;
}

/** The names of all built-in bots under `<projectRoot>/bots`, sorted. */
export function listBuiltinBots(projectRoot: string): string[] {
  const dir = join(resolve(projectRoot), 'bots');
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.filter((n) => NAME.test(n) && existsSync(join(dir, n, 'main.ts'))).sort();
}

/**
 * A start from the bot's Node startup snapshot (scripts/bot-snapshot.js): `args` instead of the command's,
 * only when the bot's NODE_OPTIONS are exactly `nodeOptions` (Node refuses the blob under other V8 flags,
 * e.g. another memory limit's --max-old-space-size).
 */
export interface SnapshotStart {
  readonly nodeOptions: string;
  readonly args: readonly string[];
}

/** The build id on the first line of `file` (`// arena-build <id>`), if any. */
function buildIdOf(file: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const head = Buffer.alloc(64);
    const n = readSync(fd, head, 0, head.length, 0);
    return /^\/\/ arena-build (\S+)\n/.exec(head.toString('latin1', 0, n))?.[1];
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The snapshot start beside `main` (dist/bots-cjs/<name>/main.cjs), when its snapshot.json says it was made
 * by this very Node binary (version, path, size, time), in this folder, for this build's bundle; else
 * undefined (missing, stale or another Node's: the bot starts from main.cjs). Node would refuse a blob of
 * another binary with an exit, not a fallback, so that is checked here, before the start.
 */
export function snapshotStart(main: string): SnapshotStart | undefined {
  const dir = dirname(main);
  const blob = join(dir, 'snapshot.blob');
  try {
    const facts = JSON.parse(readFileSync(join(dir, 'snapshot.json'), 'utf8')) as Record<string, unknown>;
    const exe = statSync(process.execPath);
    const fits =
      facts.node === process.version &&
      facts.execPath === process.execPath &&
      facts.execSize === exe.size &&
      facts.execMtimeMs === exe.mtimeMs &&
      facts.dir === dir &&
      typeof facts.build === 'string' &&
      facts.build === buildIdOf(join(dir, 'bundle.cjs')) &&
      typeof facts.nodeOptions === 'string' &&
      existsSync(blob);
    // main.cjs stays argv[1], so the bot's own flags are argv[2…] as in a plain start.
    return fits ? { nodeOptions: facts.nodeOptions as string, args: ['--snapshot-blob', blob, main] } : undefined;
  } catch {
    return undefined; // no snapshot.json (or not JSON): never made, or the build could not make it
  }
}

/**
 * The command that runs built-in bot `name`: when the compiled tree is fresh, `node <root>/dist/bots-cjs/<name>/main.cjs`
 * (its one-file bundle run from the V8 code cache the build made: scripts/bot-bundles.js), or where the
 * build could not make that, `node <root>/dist/bots/<name>/main.js` (an ES module and its shared chunks);
 * else `node --import <tsx loader> <root>/bots/<name>/main.ts`. `startSnapshot`: where the build made a startup
 * snapshot for this Node, the faster start from it (scripts/bot-snapshot.js), for the spawn to take when
 * the bot's NODE_OPTIONS are the ones it was made under.
 * `entry` is the program file it runs (the sandbox shows the folders that file's code reaches).
 * Undefined when there is no such bot (or tsx cannot be found).
 */
export function builtinBotCommand(name: string, projectRoot: string): { command: string; args: string[]; entry: string; startSnapshot?: SnapshotStart } | undefined {
  if (!NAME.test(name)) return undefined;
  const main = join(resolve(projectRoot), 'bots', name, 'main.ts');
  if (!existsSync(main)) return undefined;
  const boot = compiledPath(projectRoot, join('bots-cjs', name, 'main.cjs'));
  const startSnapshot = boot ? snapshotStart(boot) : undefined;
  if (boot) return { command: process.execPath, args: [boot], entry: boot, ...(startSnapshot ? { startSnapshot } : {}) };
  const compiled = compiledPath(projectRoot, join('bots', name, 'main.ts'));
  if (compiled) return { command: process.execPath, args: [compiled], entry: compiled };
  const loader = tsxLoaderPath(projectRoot);
  if (!loader) return undefined;
  // A file URL, not a bare path: --import takes a module specifier, and Windows paths are not URLs.
  return { command: process.execPath, args: ['--import', pathToFileURL(loader).href, main], entry: main };
}
