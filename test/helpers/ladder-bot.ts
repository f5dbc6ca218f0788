/**
 * The ladder tests' command bot in a temp folder (given to nobody when run as root, as docs/sandbox.md tells root
 * to do) and a reader of the database the spawned ladder writes. Free of vitest, so benchmarks use it too.
 */
import { appendFileSync, chmodSync, chownSync, copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openContext, type OpenContext } from '../../src/app/context.ts';

/** The checkout (not from ../e2e/helpers.ts, which needs vitest). */
const ROOT = resolve(import.meta.dirname, '../..');

/** A temp folder holding the A* command bot (test/fixtures/ladder/astar-bot.mjs as bot.mjs). */
export function astarFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'arena-ladder-bot-'));
  copyFileSync(join(ROOT, 'test/fixtures/ladder/astar-bot.mjs'), join(dir, 'bot.mjs'));
  giveToNobody(dir);
  return dir;
}

/** Changes the bot's code (a comment is enough: the version is the hash of its files). */
export function changeBot(dir: string, mark: string): void {
  appendFileSync(join(dir, 'bot.mjs'), `// ${mark}\n`);
  giveToNobody(dir);
}

/** As root, owned as a contestant's folder would be, and open to the uid each start of the bot runs as (one of the pool). */
function giveToNobody(dir: string): void {
  if (process.getuid?.() !== 0) return;
  chownSync(dir, 65534, 65534);
  chownSync(join(dir, 'bot.mjs'), 65534, 65534);
  chmodSync(dir, 0o777);
}

/** The `arena bot add` arguments of the A* bot in `dir`. */
export const addAstar = (dir: string): string[] => ['bot', 'add', 'astar', '--cmd', `${process.execPath} bot.mjs`, '--cwd', dir, '--stdio'];

/** Opens the database the ladder writes, to read its view between steps. */
export async function reader(db: string): Promise<OpenContext> {
  const ctx = await openContext({ db });
  if (!ctx.ok) throw new Error(ctx.reason);
  return ctx.value;
}
