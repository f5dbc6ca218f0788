/**
 * The folder check of `bot add`: a folder the sandbox will refuse to give a bot (/, a home, the checkout,
 * the database's folder, one holding a protected path) is refused at registration, by the sandbox's own
 * rule (sandbox/folder.ts), not at the first match. A bot that runs code of the checkout (a test fixture
 * run through tsx) is shown that code read-only instead of a folder of its own, as the sandbox does.
 */
import type { Result } from '../../core/types.ts';
import { ok, reject } from '../../core/types.ts';
import { checkFolder } from '../../sandbox/folder.ts';
import type { AppContext } from '../context.ts';
import { splitCommand } from './split-command.ts';
import { guardedPaths, projectEntry } from './guarded-paths.ts';

/** Refuses `folder` (the bot's --cwd, as registration resolved it) when the sandbox would refuse it. */
export function checkRegisteredFolder(ctx: Pick<AppContext, 'projectRoot' | 'dbLocation'>, name: string, cmd: string, folder: string | undefined): Result<void> {
  if (folder === undefined) return ok(undefined);
  const argv = splitCommand(cmd);
  if (!argv.ok) return argv;
  const [, ...args] = argv.value;
  if (projectEntry({ source: 'command', args, cwd: folder }, ctx.projectRoot)) return ok(undefined);
  const checked = checkFolder(folder, guardedPaths(ctx));
  return checked.ok ? ok(undefined) : reject('bad-folder', `bot ${name} would never start in the sandbox: ${checked.reason}`);
}
