/**
 * What a bot's command needs to run inside a sandbox: the program found as the referee would find it,
 * followed through what stands in front of the real runtime, and the folders of that runtime to show
 * read-only. Resolved once, when the bot is registered (and when the ladder takes a new snapshot of it),
 * stored with the registration, and checked again at every start (checkRuntime).
 *
 * Nothing a bot can write decides how it starts. Files inside the bot's folder (read from its snapshot)
 * are never executed and never followed outside the sandbox: a version manager's shim line or a
 * pyvenv.cfg there is ignored (the shim then runs inside, confined, as the bot's own script); only a
 * script's #! line is read there, and the interpreter it names must, like every program and folder found
 * outside the bot's folder, be trusted (trusted-path.ts: owned by root or the referee, writable by no one
 * else, not /, a kernel or home folder, the checkout, the database or another bot's folder).
 *
 * - A trusted version manager's shim (pyenv, rbenv, nodenv, goenv) is asked which program it runs
 *   (`<manager> which <name>`, from /, the bot's .python-version etc. passed as a checked version name);
 *   the sandbox runs that program directly, so the manager itself stays outside.
 * - A script runs its #! interpreter (`/usr/bin/env NAME` looked up on PATH), followed the same way.
 * - A binary's runtime is its prefix: the folder above its bin/ (a pyenv version, an nvm Node, a conda
 *   environment), or its own folder; a trusted venv is followed through its pyvenv.cfg to the base
 *   interpreter's prefix.
 * Nothing is bound that the sandbox shows anyway (/usr, the bot's folder).
 */
import { closeSync, constants, openSync, readFileSync, readSync } from 'node:fs';
import { basename, dirname, isAbsolute, join } from 'node:path';
import type { Result } from '../core/types.ts';
import { ok, reject } from '../core/types.ts';
import { resolveExecutable } from '../transport/process/bot-limits.ts';
import { runCommand } from '../transport/process/run-command.ts';
import { checkTrusted, isWithin, realOf } from './trusted-path.ts';

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
  /** The bot's folder where the bot sees it (shown anyway). */
  readonly folder: string;
  /** Where the folder's files are read on the host: its snapshot (default `folder`). */
  readonly content?: string;
  /** The referee's PATH, where the bot's command and a script's interpreter are looked up. */
  readonly path: string;
  /** Folders nothing of a runtime may hold or lie in (the checkout, the database, the snapshot store, other bots' folders). */
  readonly guarded: readonly string[];
}

/** Folders every sandbox shows: their programs need nothing more. */
const SYSTEM = ['/usr', '/bin', '/sbin', '/lib', '/lib64', '/lib32', '/libx32'];
const SHIM = /exec "([^"]+\/libexec\/(pyenv|rbenv|nodenv|goenv))" exec /;
/** Each manager's version file in a project folder, and the variable that names a version instead. */
const VERSION_FILES: Record<string, { readonly file: string; readonly env: string }> = {
  pyenv: { file: '.python-version', env: 'PYENV_VERSION' },
  rbenv: { file: '.ruby-version', env: 'RBENV_VERSION' },
  nodenv: { file: '.node-version', env: 'NODENV_VERSION' },
  goenv: { file: '.go-version', env: 'GOENV_VERSION' },
};
const VERSION_NAME = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$/;
const MAX_HOPS = 8;

const inSystem = (path: string): boolean => SYSTEM.some((s) => isWithin(path, s));

/** The first 4 KiB of a file (a link is not followed when `noFollow`), or '' when unreadable. */
function head(file: string, noFollow = false): string {
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_RDONLY | (noFollow ? constants.O_NOFOLLOW : 0));
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

/** Folders a runtime path may neither hold nor lie in. */
const avoided = (ctx: RuntimeContext): string[] => [...ctx.guarded, ctx.folder, ...(ctx.content ? [ctx.content] : [])];
const contentOf = (ctx: RuntimeContext): string => ctx.content ?? ctx.folder;

/** The version a manager should use, read as data from the bot's folder (never acted on otherwise). */
function pinnedVersion(manager: string, ctx: RuntimeContext): Record<string, string> {
  const v = VERSION_FILES[manager];
  if (!v) return {};
  let text: string;
  try {
    text = readFileSync(join(contentOf(ctx), v.file), 'latin1').slice(0, 256);
  } catch {
    return {};
  }
  const name = text.split('\n')[0].trim();
  return VERSION_NAME.test(name) ? { [v.env]: name } : {};
}

/** Which program a trusted version manager's shim runs, asked of the manager from / (see the module comment). */
function throughShim(manager: string, kind: string, shim: string, text: string, ctx: RuntimeContext): Result<string> {
  const trusted = checkTrusted(manager, avoided(ctx));
  if (!trusted.ok) return reject('shim', `the version manager ${manager} named by ${shim} is not trusted: ${trusted.reason}`);
  const env: Record<string, string> = { PATH: ctx.path, HOME: process.env.HOME ?? '/', ...pinnedVersion(kind, ctx) };
  for (const m of text.matchAll(/export ([A-Z]+_ROOT)="([^"]+)"/g)) env[m[1]] = m[2];
  const run = runCommand(manager, ['which', basename(shim)], { env, cwd: '/', timeoutMs: 15_000 });
  const found = run.stdout.trim().split('\n')[0];
  if (run.status !== 0 || !found || !isAbsolute(found)) {
    const said = (run.stderr.trim().split('\n')[0] || run.error) ?? `exit ${run.status}`;
    return reject('shim', `cannot tell which program the shim ${shim} runs (${basename(manager)} which said: ${said})`);
  }
  return ok(found);
}

/** The runtime of `command` as the bot would start it from its folder; see the module comment. */
export function resolveRuntime(command: string, ctx: RuntimeContext): Result<Runtime> {
  const content = contentOf(ctx);
  const found = resolveExecutable(command, content, ctx.path);
  if (!found) return reject('no-program', command.includes('/') ? `${command} is not an executable file` : `no program "${command}" on PATH`);
  const binds = new Set<string>();
  const pathDirs: string[] = [];
  let program = found;
  let file = found;
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    if (isWithin(file, content)) {
      // The bot's own file: only its #! line is read; it runs inside, from the read-only snapshot.
      const interpreter = shebang(head(file, true));
      if (!interpreter) break;
      const next = interpreterOf(interpreter, ctx);
      if (!next.ok) return next;
      file = next.value;
      continue;
    }
    const trusted = checkTrusted(file, avoided(ctx));
    if (!trusted.ok) return trusted;
    const real = trusted.value;
    const text = head(file);
    const shim = SHIM.exec(text);
    if (shim) {
      const through = throughShim(shim[1], shim[2], file, text, ctx);
      if (!through.ok) return through;
      if (file === program) program = through.value;
      file = through.value;
      continue;
    }
    for (const f of new Set([file, real])) {
      if (!inSystem(f)) binds.add(checkTrusted(prefixOf(f), avoided(ctx)).ok ? prefixOf(f) : f);
      if (!inSystem(dirname(f))) pathDirs.push(dirname(f));
    }
    const base = venvHome(file, ctx);
    if (base) binds.add(base);
    const interpreter = shebang(head(real));
    if (!interpreter) break;
    const next = interpreterOf(interpreter, ctx);
    if (!next.ok) return next;
    file = next.value;
  }
  // The program is named where the bot sees its folder, not where its snapshot is kept.
  if (program !== found || !isWithin(program, content)) return ok({ program, binds: [...binds], pathDirs: [...new Set(pathDirs)] });
  return ok({ program: ctx.folder + program.slice(content.length), binds: [...binds], pathDirs: [...new Set(pathDirs)] });
}

/** The file a #! line runs: an absolute path, or a name after `env` looked up on the referee's PATH. */
function interpreterOf(words: readonly string[], ctx: RuntimeContext): Result<string> {
  const [first, ...rest] = words;
  const name = basename(first) === 'env' ? rest.find((w) => !w.startsWith('-')) : first;
  const next = name === undefined ? undefined : isAbsolute(name) ? name : name.includes('/') ? undefined : resolveExecutable(name, '/', ctx.path);
  if (!next) return reject('no-program', `the interpreter ${words.join(' ')} is not found`);
  return ok(next);
}

/** A trusted venv's base interpreter prefix (pyvenv.cfg's `home`), when that is trusted too. */
function venvHome(program: string, ctx: RuntimeContext): string | undefined {
  const cfgPath = join(dirname(dirname(program)), 'pyvenv.cfg');
  if (!checkTrusted(cfgPath, avoided(ctx)).ok) return undefined;
  let cfg: string;
  try {
    cfg = readFileSync(cfgPath, 'utf8');
  } catch {
    return undefined;
  }
  const home = /^home\s*=\s*(.+)$/m.exec(cfg)?.[1].trim();
  if (!home || !isAbsolute(home)) return undefined;
  const real = realOf(home);
  if (real === undefined) return undefined;
  const prefix = basename(real) === 'bin' ? dirname(real) : real;
  return !inSystem(prefix) && checkTrusted(prefix, avoided(ctx)).ok ? prefix : undefined;
}

/**
 * Checks a stored runtime again before a start: its program (unless the bot's own file) and every folder
 * it shows must still be trusted (trusted-path.ts), so a runtime that became writable by a bot, or a bind
 * that now leads into its folder or a rival's, is refused rather than shown.
 */
export function checkRuntime(rt: Runtime, ctx: RuntimeContext): Result<Runtime> {
  const avoid = avoided(ctx);
  const outside = (p: string): boolean => !isWithin(p, ctx.folder) && !inSystem(p);
  for (const p of [rt.program, ...rt.binds, ...rt.pathDirs].filter(outside)) {
    const trusted = checkTrusted(p, avoid);
    if (!trusted.ok) return reject('runtime', `its registered runtime is no longer safe to use: ${trusted.reason}`);
  }
  return ok(rt);
}
