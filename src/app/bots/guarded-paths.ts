/**
 * Paths no bot may see, have in its folder, or have in its runtime: the project checkout, the database and
 * its folder, and the database's snapshot store (src/sandbox/snapshot/store.ts).
 */
import { statSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { snapshotStoreOf } from '../../sandbox/snapshot/store.ts';
import type { AppContext } from '../context.ts';
import { isOwnedName } from './bot-owner.ts';

/** Paths no bot may see or have in its folder; see the module comment. */
export function guardedPaths(ctx: Pick<AppContext, 'projectRoot' | 'dbLocation'>): string[] {
  const out = [ctx.projectRoot];
  if (ctx.dbLocation.startsWith('/')) out.push(ctx.dbLocation, dirname(ctx.dbLocation));
  out.push(snapshotStoreOf(ctx.dbLocation));
  return out;
}

/** What projectEntry reads of a resolved bot (bot-registry.ts's ResolvedBot has it; the registry imports this file). */
export interface BotStart {
  /** The name results are recorded under; an owned bot's (`alice/astar`) came from a submission. */
  readonly name?: string;
  readonly source: 'builtin' | 'command' | 'remote';
  readonly args: readonly string[];
  readonly cwd?: string;
  readonly entry?: string;
}

const inside = (path: string, folder: string): boolean => path === folder || path.startsWith(folder + sep);

/**
 * The file of the project checkout a bot runs, if any: a built-in bot's main file, or the first argument
 * of a command bot that names a file inside the checkout (outside node_modules), as a test fixture run
 * through tsx does. Such a bot is shown the checkout's code it needs (sandbox/code-mounts.ts).
 */
export function projectEntry(bot: BotStart, projectRoot: string): string | undefined {
  if (bot.source === 'builtin') return bot.entry;
  if (bot.source !== 'command') return undefined;
  // A submitted bot is never shown the checkout's code: its files were written by its build (the code mounts
  // follow a bot's imports), and with the default database inside the checkout its folder is there too.
  if (isOwnedName(bot.name)) return undefined;
  const root = resolve(projectRoot);
  for (const arg of bot.args) {
    if (arg.startsWith('-') || arg.includes('://')) continue;
    const file = resolve(bot.cwd ?? process.cwd(), arg);
    if (!inside(file, root) || inside(file, join(root, 'node_modules'))) continue;
    try {
      if (statSync(file).isFile()) return file;
    } catch {
      // not a file: an ordinary argument
    }
  }
  return undefined;
}
