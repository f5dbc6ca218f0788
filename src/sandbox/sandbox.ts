/**
 * A confinement (transport/confinement.ts) made of bubblewrap: for each start, what the bot may see
 * (its runtime, its folder, a project bot's code, the relay and its channel) turned into a plan and then
 * into bwrap's command line (bwrap-args.ts). The bot's environment is PATH, HOME and the protocol's
 * variables: nothing of the referee's.
 */
import { dirname, resolve } from 'node:path';
import type { Result } from '../core/types.ts';
import { ok, reject } from '../core/types.ts';
import type { Command, ConfinedStart, ConfineRequest, Confinement } from '../transport/confinement.ts';
import type { Bind, SandboxPlan } from './bwrap-args.ts';
import { bwrapArgs, INSIDE } from './bwrap-args.ts';
import { codeMounts } from './code-mounts.ts';
import { checkFolder, userFor } from './folder.ts';
import type { SandboxSupport } from './probe.ts';
import { relayFor } from './relay.ts';
import { checkRuntime, resolveRuntime, type Runtime, type RuntimeContext } from './runtime.ts';
import { etcPaths, systemPaths } from './system-paths.ts';

/** Size of a bot's private /tmp (and of its /dev/shm): room for a runtime's caches (tsx keeps its compiled files there). */
export const TMP_BYTES = 64 * 1024 * 1024;
/** HOME inside: the private /tmp, so a runtime that writes dotfiles writes them where nothing is kept. */
export const SANDBOX_HOME = '/tmp';

/** How one bot (one launcher) is confined. */
export interface SandboxOptions {
  /** A working bwrap (probe.ts). */
  readonly support: Extract<SandboxSupport, { ok: true }>;
  /** Paths no bot may see or have in its folder: the database and its folder, the project checkout. */
  readonly guarded: readonly string[];
  /**
   * A bot whose code is in the project checkout (built-in, test fixture, or a registered command that
   * runs a file of the checkout): that code is shown read-only (code-mounts.ts). Its folder is the one
   * given to the launcher (writable), unless that is no place for a bot (the checkout itself, say): then
   * its code folder, read-only.
   */
  readonly code?: { readonly root: string; readonly entry: string; readonly cacheDir?: string };
  /** Which relay WebSocket bots get (relay.ts); default the native one where it can be built. */
  readonly relay?: 'auto' | 'node';
  /**
   * A registered bot's snapshot (snapshot/copy.ts): shown read-only where its folder is, in place of the
   * folder; `runtime`, resolved when it was registered, is checked again (runtime.ts checkRuntime) and used
   * instead of looking at anything now; `avoid`: other bots' folders, which no runtime may show.
   */
  readonly played?: { readonly path: string; readonly runtime?: Runtime; readonly avoid: readonly string[] };
}

/**
 * A bubblewrap confinement. What the system and a project bot's code need is found once; a command's
 * runtime once per command and folder (asking a version manager which interpreter a shim runs takes a
 * few hundred milliseconds, too long for every start).
 */
export function createSandbox(o: SandboxOptions): Confinement {
  const fixed: Fixed = {
    system: systemPaths(),
    etc: etcPaths(),
    code: o.code ? codeMounts(o.code.root, o.code.entry, o.code.cacheDir, o.guarded) : [],
    runtimes: new Map(),
  };
  return { prepare: (request) => prepare(request, o, fixed) };
}

/** What one confinement works out once. */
interface Fixed {
  readonly system: SandboxPlan['system'];
  readonly etc: readonly string[];
  readonly code: readonly Bind[];
  readonly runtimes: Map<string, Result<Runtime>>;
}

function runtimeOf(command: string, ctx: RuntimeContext, fixed: Fixed): Result<Runtime> {
  const key = `${command}\0${ctx.folder}`;
  let r = fixed.runtimes.get(key);
  if (!r) fixed.runtimes.set(key, (r = resolveRuntime(command, ctx)));
  return r;
}

function prepare(request: ConfineRequest, o: SandboxOptions, fixed: Fixed): Result<ConfinedStart> {
  const { system, etc, code } = fixed;
  const codeFolder = o.code ? dirname(resolve(o.code.entry)) : undefined;
  let folder = resolve(request.cwd ?? codeFolder ?? process.cwd());
  // A registered bot plays its snapshot, read-only where its folder is. Without one (a built-in or a test
  // fixture given a folder, a registered bot without --cwd) the folder is shown as before: writable.
  let own: Bind | undefined;
  let writable = false;
  if (o.played && request.cwd !== undefined) own = { source: o.played.path, dest: folder };
  else if (request.cwd !== undefined || !codeFolder) {
    const checked = checkFolder(folder, o.guarded);
    if (!checked.ok && !codeFolder) return checked;
    if (!checked.ok && codeFolder) folder = codeFolder;
    else writable = true;
  }
  const hostPath = process.env.PATH ?? '';
  const ctx: RuntimeContext = { folder, path: hostPath, guarded: [...o.guarded, ...(o.played?.avoid ?? [])], ...(o.played ? { content: o.played.path } : {}) };
  const runtime = o.played?.runtime ? checkRuntime(o.played.runtime, ctx) : runtimeOf(request.command, ctx, fixed);
  if (!runtime.ok) return reject(runtime.code, runtime.reason);

  const readOnly: Bind[] = [...code, ...(own ? [own] : []), ...runtime.value.binds.map((p) => ({ source: p, dest: p }))];
  let before: string[] | undefined;
  if (request.channel) {
    const relay = relayFor(process.execPath, o.relay);
    readOnly.push(...relay.binds, { source: request.channel.socket, dest: INSIDE.socket });
    if (relay.kind === 'node') {
      const node = runtimeOf(process.execPath, { folder, path: hostPath, guarded: o.guarded }, fixed);
      if (node.ok) readOnly.push(...node.value.binds.map((p) => ({ source: p, dest: p })));
    }
    before = relay.prefix(request.channel.port);
  }
  const root = process.getuid?.() === 0;
  if (root && !o.support.setpriv) return reject('sandbox', 'setpriv is needed to drop root, and was not found');
  const plan: SandboxPlan = {
    system,
    etc,
    readOnly,
    writable: writable ? [{ source: folder, dest: folder }] : [],
    chdir: folder,
    tmpBytes: TMP_BYTES,
    ...(root ? { user: { setpriv: o.support.setpriv!, ...userFor(folder) } } : {}),
  };
  const PATH = [...runtime.value.pathDirs, '/usr/local/bin', '/usr/bin', '/bin'].filter((d, i, all) => all.indexOf(d) === i).join(':');
  const env = { ...request.env, PATH, HOME: SANDBOX_HOME };
  const bwrap = o.support.bwrap;
  return ok({
    program: runtime.value.program,
    before: before ?? [],
    env,
    wrap(chain: Command, finalEnv: Readonly<Record<string, string>>) {
      const { options, prefix } = bwrapArgs(plan, finalEnv);
      return { command: bwrap, args: ['--args', '3', '--', ...prefix, chain.command, ...chain.args], hidden: options };
    },
  });
}
