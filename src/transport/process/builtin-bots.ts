/**
 * Built-in bots: every folder bots/<name>/ holding a main.ts is a bot program run through tsx. The referee
 * spawns it with the same Node binary that runs the referee, so no PATH lookup is involved.
 */
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
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
 * The command that runs built-in bot `name`: when the compiled tree is fresh, `node <root>/dist/bots-cjs/<name>/main.cjs`
 * (its one-file bundle run from the V8 code cache the build made: scripts/bot-bundles.js), or where the
 * build could not make that, `node <root>/dist/bots/<name>/main.js` (an ES module and its shared chunks);
 * else `node --import <tsx loader> <root>/bots/<name>/main.ts`.
 * `entry` is the program file it runs (the sandbox shows the folders that file's code reaches).
 * Undefined when there is no such bot (or tsx cannot be found).
 */
export function builtinBotCommand(name: string, projectRoot: string): { command: string; args: string[]; entry: string } | undefined {
  if (!NAME.test(name)) return undefined;
  const main = join(resolve(projectRoot), 'bots', name, 'main.ts');
  if (!existsSync(main)) return undefined;
  const compiled = compiledPath(projectRoot, join('bots-cjs', name, 'main.cjs')) ?? compiledPath(projectRoot, join('bots', name, 'main.ts'));
  if (compiled) return { command: process.execPath, args: [compiled], entry: compiled };
  const loader = tsxLoaderPath(projectRoot);
  if (!loader) return undefined;
  // A file URL, not a bare path: --import takes a module specifier, and Windows paths are not URLs.
  return { command: process.execPath, args: ['--import', pathToFileURL(loader).href, main], entry: main };
}
