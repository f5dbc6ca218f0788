/**
 * What a bot whose code lives in the project checkout (a built-in bot, a test fixture) needs of it,
 * read-only: its own folder and the folders its files import from (bots/shared, src/), the packages
 * (node_modules, which tsx and the SDK's ws come from), package.json and tsconfig.json (which tell tsx
 * how to load TypeScript), and the pattern-database cache. Nothing else of the checkout: not the
 * results database beside it, not the other bots' folders, not .git.
 *
 * The imports are read from files a contestant may have written (a registered bot inside the checkout),
 * so no folder is shown that holds a guarded path (the database) or lies under a dot-folder (.git).
 *
 * Paths are shown where the bot's code expects them (under the project root), from their real place:
 * node_modules or .cache may be symlinks to another checkout. The real place of node_modules is shown
 * too, because the tsx loader is named on the command line by its real path.
 */
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { Bind } from './bwrap-args.ts';

/** Folders scanned for imports at most (a bot's own, and those it reaches). */
const MAX_FOLDERS = 32;
const IMPORT = /(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;
/** Shown whole whatever a bot imports of them. */
const WHOLE = ['src', 'node_modules'];

function real(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

const inside = (path: string, folder: string): boolean => path === folder || path.startsWith(folder + sep);

/** The project folders (outside src/ and node_modules/) reached from `start` by relative imports. */
function importedFolders(root: string, start: string): string[] {
  const seen = new Set<string>([start]);
  const queue = [start];
  while (queue.length > 0 && seen.size < MAX_FOLDERS) {
    const folder = queue.shift()!;
    let names: string[];
    try {
      names = readdirSync(folder).filter((n) => /\.(ts|mts|js|mjs)$/.test(n));
    } catch {
      continue;
    }
    for (const name of names) {
      let text: string;
      try {
        text = readFileSync(join(folder, name), 'utf8');
      } catch {
        continue;
      }
      for (const m of text.matchAll(IMPORT)) {
        const target = dirname(resolve(folder, m[1]));
        if (!inside(target, root) || WHOLE.some((w) => inside(target, join(root, w))) || seen.has(target)) continue;
        seen.add(target);
        queue.push(target);
      }
    }
  }
  return [...seen];
}

/**
 * The read-only mounts of a project bot whose program file is `entry`; `cacheDir`: the PDB cache in use;
 * `guarded`: paths no shown folder may hold.
 */
export function codeMounts(projectRoot: string, entry: string, cacheDir = join(projectRoot, '.cache', 'pdb'), guarded: readonly string[] = []): Bind[] {
  const root = resolve(projectRoot);
  const binds = new Map<string, Bind>();
  const show = (dest: string, source = real(dest)): void => {
    if (source !== undefined && existsSync(source)) binds.set(dest, { source, dest });
  };
  for (const w of WHOLE) show(join(root, w));
  const modules = real(join(root, 'node_modules'));
  if (modules !== undefined && modules !== join(root, 'node_modules')) show(modules, modules);
  for (const f of ['package.json', 'tsconfig.json']) show(join(root, f));
  show(join(root, '.cache', 'pdb'), real(cacheDir));
  for (const folder of importedFolders(root, dirname(resolve(entry)))) {
    const rel = relative(root, folder);
    if (rel === '' || rel.split(sep).some((part) => part.startsWith('.'))) continue;
    if (guarded.some((g) => inside(resolve(g), folder))) continue;
    show(folder);
  }
  return [...binds.values()];
}
