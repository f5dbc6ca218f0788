/**
 * A confinement (transport/process/confinement.ts) made of bubblewrap: for each start, what the bot may see
 * (its runtime, its folder, a project bot's code, the relay and its channel) turned into a plan and then
 * into bwrap's command line (bwrap-args.ts). The bot's environment is PATH, HOME, ARENA_CACHE and the
 * protocol's variables: nothing of the referee's.
 *
 * A real start also holds what the kernel enforces (limits/hold-start.ts): as root a uid of its own,
 * control groups that its first process joins before it execs bwrap (so nothing of the bot ever runs
 * outside them), and its writable space (scratch and cache) under its disk budget.
 */
import { dirname, resolve } from 'node:path';
import type { Result } from '../core/types.ts';
import { ok, reject } from '../core/types.ts';
import type { Command, ConfinedStart, ConfineRequest, Confinement } from '../transport/process/confinement.ts';
import type { Bind, SandboxPlan } from './bwrap-args.ts';
import { bwrapArgs, INSIDE } from './bwrap-args.ts';
import { codeMounts } from './code-mounts.ts';
import { checkFolder, NOBODY } from './folder.ts';
import { holdStart, type Holdings } from './limits/hold-start.ts';
import { noUsernsFilter } from './limits/no-userns-filter.ts';
import { CACHE_INSIDE } from './limits/writable-space.ts';
import type { SandboxSupport } from './probe.ts';
import { relayFor } from './relay.ts';
import { checkRuntime, resolveRuntime, type Runtime, type RuntimeContext } from './runtime.ts';
import { etcPaths, systemPaths } from './system-paths.ts';

/** Size of a bot's private /tmp (and of its /dev/shm) when no disk budget is given (a check, not a start). */
export const TMP_BYTES = 64 * 1024 * 1024;
/** The descriptor the seccomp filter reaches bwrap on (3 carries its options). */
const FILTER_FD = 4;
/** Exit code of the outer shell when the bot cannot join its control groups: it never runs. */
const JOIN_FAILED = 125;
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
  const filter = root ? noUsernsFilter() : undefined;
  if (root && !filter) return reject('sandbox', `no seccomp filter against user namespaces is known for ${process.arch}; a root referee cannot confine bots here`);
  let held: Holdings | undefined;
  if (request.start) {
    const h = holdStart(request.start, root);
    if (!h.ok) return h;
    held = h.value;
  }
  const space = held?.space;
  const plan: SandboxPlan = {
    system,
    etc,
    readOnly,
    writable: [...(writable ? [{ source: folder, dest: folder }] : []), ...(space ? [{ source: space.cache, dest: CACHE_INSIDE }] : [])],
    chdir: folder,
    tmpBytes: request.start?.diskBytes ?? TMP_BYTES,
    ...(space?.tmp && space.shm ? { scratch: { tmp: space.tmp, shm: space.shm } } : {}),
    ...(root ? { user: { setpriv: o.support.setpriv!, ...(held?.user ?? { uid: NOBODY, gid: NOBODY }) }, seccompFd: FILTER_FD } : {}),
  };
  const PATH = [...runtime.value.pathDirs, '/usr/local/bin', '/usr/bin', '/bin'].filter((d, i, all) => all.indexOf(d) === i).join(':');
  const env = { ...request.env, PATH, HOME: SANDBOX_HOME, ...(space ? { ARENA_CACHE: CACHE_INSIDE } : {}) };
  const bwrap = o.support.bwrap;
  const procs = held?.group?.procs ?? [];
  return ok({
    program: runtime.value.program,
    before: before ?? [],
    env,
    wrap(chain: Command, finalEnv: Readonly<Record<string, string>>) {
      const { options, prefix } = bwrapArgs(plan, finalEnv);
      const inner = [bwrap, '--args', '3', '--', ...prefix, chain.command, ...chain.args];
      // The first process joins the bot's control groups, then becomes bwrap (same pid): nothing of the bot runs outside them.
      const joined = procs.length ? joinGroups(procs, inner) : { command: inner[0]!, args: inner.slice(1) };
      return { ...joined, hidden: options, ...(filter ? { filter } : {}) };
    },
    kernel: held?.kernel ?? { oomKills: () => 0 },
    release: () => held?.release(),
  });
}

/**
 * `command` started by a shell that first writes its own pid into each `cgroup.procs` file (exit 125 when
 * refused), then becomes it through `env -i`, so the shell's own variables (PWD) do not reach bwrap.
 */
function joinGroups(procs: readonly string[], command: readonly string[]): { command: string; args: string[] } {
  const script = `n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1" || exit ${JOIN_FAILED}; shift; n=$((n - 1)); done; exec /usr/bin/env -i "$@"`;
  return { command: '/bin/sh', args: ['-c', script, 'arena-join', String(procs.length), ...procs, ...command] };
}
