/**
 * Running from the TypeScript source (through tsx) or from the bundle under dist/ (built once at install,
 * see scripts/build.js). Files that are not bundled (static web assets, the pattern-database cache, the
 * project root itself) are found from the project root, so both ways of running agree.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder of the compiled tree, relative to the project root. */
export const DIST_DIR = 'dist';
/** Written by scripts/build.js after a successful compile; its time is the build's time. */
export const BUILD_STAMP = '.build-stamp';
/** The source folders that are bundled into dist/ (tests and benches are not). */
export const COMPILED_FOLDERS = ['src', 'bots'] as const;

/**
 * The project root for the module at `moduleUrl`: the nearest folder upwards holding package.json.
 * dist/ has none, so a compiled module finds the same root as its source.
 */
export function projectRootOf(moduleUrl: string): string {
  let dir = dirname(fileURLToPath(moduleUrl));
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${fileURLToPath(moduleUrl)}`);
    dir = up;
  }
}

/** True when the module at `moduleUrl` is running from the compiled tree. */
export function runsCompiled(moduleUrl: string): boolean {
  return fileURLToPath(moduleUrl).includes(`${sep}${DIST_DIR}${sep}`);
}

function newestMtime(dir: string): number {
  let newest = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    const t = e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs;
    if (t > newest) newest = t;
  }
  return newest;
}

const freshness = new Map<string, boolean>();

/**
 * True when dist/ under `root` holds a complete build newer than every compiled source file: only then is
 * it run, so an edited source never runs stale (the check walks about 300 files, ~6 ms, once per process).
 */
export function buildIsFresh(root: string): boolean {
  const key = resolve(root);
  const known = freshness.get(key);
  if (known !== undefined) return known;
  let fresh = false;
  try {
    const stamp = statSync(join(key, DIST_DIR, BUILD_STAMP)).mtimeMs;
    fresh = COMPILED_FOLDERS.every((f) => newestMtime(join(key, f)) <= stamp);
  } catch {
    fresh = false;
  }
  freshness.set(key, fresh);
  return fresh;
}

/** The compiled path of source file `rel` (e.g. `bots/dijkstra/main.ts`) under `root`, when fresh. */
export function compiledPath(root: string, rel: string): string | undefined {
  if (!buildIsFresh(root)) return undefined;
  const js = join(resolve(root), DIST_DIR, rel.replace(/\.ts$/, '.js'));
  return existsSync(js) ? js : undefined;
}
