/**
 * For end-to-end tests of prepared assets: a copy of the checkout with one more built-in bot, tiny-tables,
 * that declares a SMALL asset (three 5-tile 4×4 patterns, two tables, 1 MB, seconds to build; the real
 * ones are hundreds of MB), and a runner of that copy's `arena` with the asset store of the caller's choice.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ROOT } from '../e2e/helpers.ts';

/** The same partition as test/fixtures/prepare/asset-reader.ts reads. */
export const TINY_PARTITION = [
  [1, 2, 3, 5, 6],
  [4, 7, 8, 11, 12],
  [9, 10, 13, 14, 15],
];
const DECLARATION = {
  assets: [{ id: 'tiny-4x4-tables', what: 'its test tables', classes: ['sliding 4x4'], estimatedSeconds: 6, tables: { rows: 4, cols: 4, partition: TINY_PARTITION } }],
};

/**
 * A second test bot, tiny-notice: the constructive bot (it never reads tables, so it plays the same with
 * or without them) declaring a 6 kB asset of the 3×3, built in milliseconds; what a door that plays games
 * (the ladder) is tested with, since tiny-tables declines every scramble it has no tables for.
 */
const NOTICE_DECLARATION = {
  assets: [{ id: 'tiny-3x3-tables', what: 'its 3x3 test tables', classes: ['sliding 3x3'], estimatedSeconds: 1, tables: { rows: 3, cols: 3, partition: [[1, 2, 3, 4], [5, 6, 7, 8]] } }],
};

/** The line every door says when tiny-notice's asset is not in the store. */
export const NOTICE_MISSING_LINE = 'tiny-notice: its 3x3 test tables are not built (6 kB, about 1 s on 2 cores): run arena prepare tiny-notice';

/** The line every door says when tiny-tables' asset is not in the store (bot-assets.ts's missingAssetLine). */
export const TINY_MISSING_LINE = 'tiny-tables: its test tables are not built (1.0 MB, about 6 s on 2 cores): run arena prepare tiny-tables';

/** A copy of the checkout (hard links where it can) with two more built-in bots that declare tiny assets: tiny-tables and tiny-notice. */
export function checkoutCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'arena-prepare-root-'));
  for (const part of ['package.json', 'tsconfig.json', 'bin', 'src', 'bots', 'test/fixtures/prepare']) {
    mkdirSync(dirname(join(dir, part)), { recursive: true });
    if (spawnSync('cp', ['-al', join(ROOT, part), join(dir, part)]).status !== 0) cpSync(join(ROOT, part), join(dir, part), { recursive: true, dereference: true });
  }
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  mkdirSync(join(dir, 'bots', 'tiny-tables'));
  writeFileSync(join(dir, 'bots', 'tiny-tables', 'main.ts'), "import '../../test/fixtures/prepare/asset-reader.ts';\n");
  writeFileSync(join(dir, 'bots', 'tiny-tables', 'assets.json'), JSON.stringify(DECLARATION));
  mkdirSync(join(dir, 'bots', 'tiny-notice'));
  writeFileSync(join(dir, 'bots', 'tiny-notice', 'main.ts'), "import '../constructive/main.ts';\n");
  writeFileSync(join(dir, 'bots', 'tiny-notice', 'assets.json'), JSON.stringify(NOTICE_DECLARATION));
  return dir;
}

/** What a finished run printed. */
export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Starts the copy `root`'s `arena` in `cwd` with the asset store `store`; `onStderr` sees stderr as it
 * comes (and may stop the child); `umask`, when given, is set by a shell that then becomes the arena
 * (exec), so signals still reach the arena itself.
 */
export function startArenaIn(root: string, cwd: string, args: string[], store: string, onStderr?: (all: string, child: ChildProcess) => void, umask?: string): { child: ChildProcess; done: Promise<Ran> } {
  const argv = [process.execPath, join(root, 'bin', 'arena.js'), ...args];
  const [cmd, ...rest] = umask ? ['/bin/sh', '-c', `umask ${umask} && exec "$0" "$@"`, ...argv] : argv;
  const child = spawn(cmd!, rest, { cwd, env: { ...process.env, ARENA_CACHE_DIR: store }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => {
    stderr += d;
    onStderr?.(stderr, child);
  });
  return { child, done: new Promise((res) => child.on('close', (code) => res({ code, stdout, stderr }))) };
}

/** {@link startArenaIn}, waiting for it to end. */
export const arenaIn = (...a: Parameters<typeof startArenaIn>): Promise<Ran> => startArenaIn(...a).done;
