/**
 * What a bot's command needs to run inside a sandbox: the program found as the referee would find it,
 * followed through what stands in front of the real runtime, and the folders of that runtime to show
 * read-only.
 *
 * - A version manager's shim (pyenv, rbenv, nodenv, goenv: a script that execs `<manager> exec <name>`)
 *   is asked which program it would run from the bot's folder (`<manager> which <name>`, honouring a
 *   .python-version there); the sandbox runs that program directly, so the manager itself stays outside.
 * - A script runs its #! interpreter (`/usr/bin/env NAME` looked up on PATH), followed the same way.
 * - A binary's runtime is its prefix: the folder above its bin/ (a pyenv version, an nvm Node, a conda
 *   environment), or its own folder. A venv in the bot's folder is followed through its symlinks and its
 *   pyvenv.cfg to the base interpreter's prefix.
 * Nothing is bound that the sandbox shows anyway (/usr, the bot's folder), and never a home folder, /,
 * or a folder holding something protected: then only the program file itself is shown.
 */
import { closeSync, openSync, readFileSync, readSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join } from 'node:path';
import type { Result } from '../core/types.ts';
import { ok, reject } from '../core/types.ts';
import { resolveExecutable } from '../transport/bot-limits.ts';
import { runCommand } from '../transport/run-command.ts';

/** What the sandbox must show for one command. */
export interface Runtime {
  /** The program to exec inside (a shim's real program; otherwise the command as found). */
  readonly program: string;
  /** Host paths to show read-only at the same place (runtime prefixes, or single files). */
  readonly binds: readonly string[];
  /** Folders to put first on PATH inside (where the runtime's own programs are). */
  readonly pathDirs: readonly string[];
}

/** Where the sandbox's environment lets a bot look, and what must stay out of sight. */
export interface RuntimeContext {
  /** The bot's folder (shown anyway). */
  readonly folder: string;
  /** The referee's PATH, where the bot's command and a script's interpreter are looked up. */
  readonly path: string;
  /** Folders that must not be bound whole (home folders, the project checkout, the database's folder). */
  readonly guarded: readonly string[];
}

/** Folders every sandbox shows: their programs need nothing more. */
const SYSTEM = ['/usr', '/bin', '/sbin', '/lib', '/lib64', '/lib32', '/libx32'];
const SHIM = /exec "([^"]+\/libexec\/(?:pyenv|rbenv|nodenv|goenv))" exec /;
const MAX_HOPS = 8;
/** /root, /home and the folders directly in /home. */
const HOME_FOLDER = /^\/root\/?$|^\/home(\/[^/]+)?\/?$/;

const isWithin = (path: string, folder: string): boolean => path === folder || path.startsWith(folder.endsWith('/') ? folder : `${folder}/`);
const shown = (path: string, folder: string): boolean => SYSTEM.some((s) => isWithin(path, s)) || isWithin(path, folder);

/** The first 4 KiB of a file, or '' when unreadable. */
function head(file: string): string {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const buf = Buffer.alloc(4096);
    return buf.toString('latin1', 0, readSync(fd, buf, 0, buf.length, 0));
  } catch {
    return '';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** `#!/usr/bin/env -S python3 -u` -> ['/usr/bin/env', '-S', 'python3', '-u']. */
function shebang(text: string): string[] | undefined {
  if (!text.startsWith('#!')) return undefined;
  const words = text.slice(2).split('\n')[0].trim().split(/\s+/).filter(Boolean);
  return words.length ? words : undefined;
}

/** The runtime prefix of a program file: the folder above bin/ or sbin/, else its own folder. */
function prefixOf(file: string): string {
  const dir = dirname(file);
  return ['bin', 'sbin'].includes(basename(dir)) ? dirname(dir) : dir;
}

/** Which program a version manager's shim runs from `folder`, asked of the manager itself. */
function throughShim(manager: string, shim: string, text: string, ctx: RuntimeContext): Result<string> {
  const env: Record<string, string> = { PATH: ctx.path, HOME: process.env.HOME ?? '/' };
  for (const m of text.matchAll(/export ([A-Z]+_ROOT)="([^"]+)"/g)) env[m[1]] = m[2];
  const run = runCommand(manager, ['which', basename(shim)], { env, cwd: ctx.folder, timeoutMs: 15_000 });
  const found = run.stdout.trim().split('\n')[0];
  if (run.status !== 0 || !found || !isAbsolute(found)) {
    const said = (run.stderr.trim().split('\n')[0] || run.error) ?? `exit ${run.status}`;
    return reject('shim', `cannot tell which program the shim ${shim} runs from ${ctx.folder} (${basename(manager)} which said: ${said})`);
  }
  return ok(found);
}

/** The runtime of `command` as the bot would start it from `ctx.folder`; see the module comment. */
export function resolveRuntime(command: string, ctx: RuntimeContext): Result<Runtime> {
  const found = resolveExecutable(command, ctx.folder, ctx.path);
  if (!found) return reject('no-program', command.includes('/') ? `${command} is not an executable file` : `no program "${command}" on PATH`);
  const binds = new Set<string>();
  const pathDirs: string[] = [];
  let program = found;
  let file = found;
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    const text = head(file);
    const shim = SHIM.exec(text);
    if (shim) {
      const real = throughShim(shim[1], file, text, ctx);
      if (!real.ok) return real;
      if (file === program) program = real.value;
      file = real.value;
      continue;
    }
    let real: string;
    try {
      real = realpathSync(file);
    } catch {
      return reject('no-program', `${file} cannot be followed to a real file`);
    }
    for (const f of new Set([file, real])) {
      if (!shown(f, ctx.folder)) binds.add(bindable(prefixOf(f), ctx) ? prefixOf(f) : f);
      if (!SYSTEM.some((s) => isWithin(dirname(f), s))) pathDirs.push(dirname(f));
    }
    venvHome(file, ctx, binds);
    const interpreter = shebang(head(real));
    if (!interpreter) break;
    const [first, ...rest] = interpreter;
    const name = basename(first) === 'env' ? rest.find((w) => !w.startsWith('-')) : first;
    const next = name === undefined ? undefined : name.includes('/') ? name : resolveExecutable(name, ctx.folder, ctx.path);
    if (!next) return reject('no-program', `the interpreter of ${real} (${interpreter.join(' ')}) is not found`);
    file = next;
  }
  return ok({ program, binds: [...binds], pathDirs: [...new Set(pathDirs)] });
}

/** A folder that may be shown whole: not /, not a home folder, not above anything guarded. */
function bindable(folder: string, ctx: RuntimeContext): boolean {
  if (folder === '/' || HOME_FOLDER.test(folder) || folder === process.env.HOME) return false;
  return !ctx.guarded.some((g) => isWithin(g, folder) || isWithin(folder, g));
}

/** A venv's base interpreter (pyvenv.cfg's `home`, a bin folder): its prefix is shown too. */
function venvHome(program: string, ctx: RuntimeContext, binds: Set<string>): void {
  let cfg: string;
  try {
    cfg = readFileSync(join(dirname(dirname(program)), 'pyvenv.cfg'), 'utf8');
  } catch {
    return;
  }
  const home = /^home\s*=\s*(.+)$/m.exec(cfg)?.[1].trim();
  if (!home || !isAbsolute(home)) return;
  let real: string;
  try {
    real = realpathSync(home);
  } catch {
    return;
  }
  const prefix = basename(real) === 'bin' ? dirname(real) : real;
  if (!shown(prefix, ctx.folder) && bindable(prefix, ctx)) binds.add(prefix);
}
