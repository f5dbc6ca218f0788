/**
 * The bubblewrap command line of one bot, as a pure function of what the bot may see: the only place that
 * spells out the confinement flag by flag. (What to bind is found elsewhere: runtime.ts, code-mounts.ts,
 * folder.ts; whether bwrap works here, probe.ts.)
 *
 * The sandbox starts from an empty root: system program folders read-only, a few /etc files the dynamic
 * linker and runtimes read, its own /proc (of its own pid namespace) and a minimal /dev, a private /tmp
 * and /dev/shm of bounded size, then the mounts of the plan. Every folder leading to a mount is created 0755 first
 * (bwrap would make them 0700, which an unprivileged uid cannot cross). Namespaces: pid, network (only a
 * loopback of its own), ipc, uts, cgroup where available, mount; a new session (no terminal to inject
 * into); it dies with its parent. As root, bwrap keeps only the capabilities setpriv needs to become the
 * bot's unprivileged uid; setpriv then drops every capability, inheritable and bounding ones included.
 * Otherwise the bot keeps the user's own uid inside a user namespace that cannot make further ones.
 */

import { isWithin } from './trusted-path.ts';

/** A path shown inside the sandbox: `source` on the host at `dest` inside. */
export interface Bind {
  readonly source: string;
  readonly dest: string;
}

/** A top-level system path (/bin, /lib64, …): a symlink into /usr on merged-/usr systems, else a folder. */
export type SystemPath = { readonly path: string; readonly symlink: string } | { readonly path: string; readonly folder: true };

/** Everything that decides one bot's sandbox. */
export interface SandboxPlan {
  readonly system: readonly SystemPath[];
  /** /etc files and folders to show read-only (those present on this machine). */
  readonly etc: readonly string[];
  /** Read-only mounts: the runtime, the code of a project bot, the relay and its socket. */
  readonly readOnly: readonly Bind[];
  /** Writable mounts: the bot's own folder. */
  readonly writable: readonly Bind[];
  /** Where the bot starts (its folder). */
  readonly chdir: string;
  /** Size of the private /tmp and /dev/shm when bwrap makes them (no `scratch`), bytes. */
  readonly tmpBytes: number;
  /** Host folders shown as /tmp and /dev/shm (a space of the bot's disk budget, writable-space.ts); absent: bwrap's tmpfs. */
  readonly scratch?: { readonly tmp: string; readonly shm: string };
  /** As root: the descriptor bwrap reads the seccomp filter from (no-userns-filter.ts). */
  readonly seccompFd?: number;
  /** As root: become this unprivileged uid/gid through setpriv. Absent: keep the user's own uid in a user namespace. */
  readonly user?: { readonly setpriv: string; readonly uid: number; readonly gid: number };
}

/** Where the relay and the referee's socket appear inside a sandbox. */
export const INSIDE = { folder: '/run/arena', relay: '/run/arena/relay', relayScript: '/run/arena/relay.mjs', socket: '/run/arena/referee.sock' } as const;

/** The hostname a bot sees. */
export const SANDBOX_HOSTNAME = 'arena-bot';


/** Folders to create (0755) before `dests` can be mounted: every ancestor not inside /usr or another mount. */
function foldersFor(dests: readonly string[], mounted: readonly string[]): string[] {
  const out = new Set<string>();
  for (const dest of dests) {
    const parts = dest.split('/').filter(Boolean);
    for (let i = 1; i < parts.length; i++) {
      const folder = `/${parts.slice(0, i).join('/')}`;
      if (isWithin(folder, '/usr') || mounted.some((m) => m !== dest && isWithin(folder, m))) continue;
      out.add(folder);
    }
  }
  return [...out].sort();
}

/**
 * bwrap's options (all before the `--`) and the command prefix that runs inside before the bot's own
 * chain (setpriv, as root). Mounts are applied parents first, so a folder bound inside another
 * (a writable bot folder inside read-only project code) shows the inner mount.
 */
export function bwrapArgs(plan: SandboxPlan, env: Readonly<Record<string, string>>): { options: string[]; prefix: string[] } {
  const o: string[] = ['--unshare-pid', '--unshare-net', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try'];
  if (!plan.user) o.push('--unshare-user', '--disable-userns');
  o.push('--hostname', SANDBOX_HOSTNAME, '--die-with-parent', '--new-session');
  o.push('--ro-bind', '/usr', '/usr');
  for (const s of plan.system) {
    if ('symlink' in s) o.push('--symlink', s.symlink, s.path);
    else o.push('--ro-bind', s.path, s.path);
  }
  for (const folder of foldersFor(plan.etc, [])) o.push('--perms', '0755', '--dir', folder);
  for (const e of plan.etc) o.push('--ro-bind', e, e);
  o.push('--proc', '/proc', '--dev', '/dev');
  // /tmp, and /dev/shm for POSIX shared memory and semaphores (Python's multiprocessing): private, capped.
  if (plan.scratch) o.push('--bind', plan.scratch.tmp, '/tmp', '--bind', plan.scratch.shm, '/dev/shm');
  else {
    const size = String(Math.max(1, Math.floor(plan.tmpBytes)));
    o.push('--perms', '1777', '--size', size, '--tmpfs', '/tmp', '--perms', '1777', '--size', size, '--tmpfs', '/dev/shm');
  }

  const mounts = [...plan.readOnly.map((b) => ({ ...b, rw: false })), ...plan.writable.map((b) => ({ ...b, rw: true }))];
  mounts.sort((a, b) => a.dest.split('/').length - b.dest.split('/').length || (a.dest < b.dest ? -1 : a.dest > b.dest ? 1 : 0));
  const dests = mounts.map((m) => m.dest);
  for (const folder of foldersFor([...dests, plan.chdir], dests)) o.push('--perms', '0755', '--dir', folder);
  for (const m of mounts) o.push(m.rw ? '--bind' : '--ro-bind', m.source, m.dest);

  o.push('--chdir', plan.chdir);
  for (const [k, v] of Object.entries(env)) o.push('--setenv', k, v);
  const prefix: string[] = [];
  if (plan.user) {
    // bwrap, run by root, drops every capability but these three, which setpriv needs and then drops.
    o.push('--cap-add', 'CAP_SETUID', '--cap-add', 'CAP_SETGID', '--cap-add', 'CAP_SETPCAP');
    if (plan.seccompFd !== undefined) o.push('--seccomp', String(plan.seccompFd));
    const { setpriv, uid, gid } = plan.user;
    prefix.push(setpriv, '--reuid', String(uid), '--regid', String(gid), '--clear-groups', '--inh-caps=-all', '--bounding-set=-all', '--no-new-privs', '--');
  }
  return { options: o, prefix };
}
