/**
 * Can this machine confine a bot? Asked once per process by starting a real, minimal sandbox (the same
 * namespaces and, as root, the same setpriv step a bot gets) around /usr/bin/true. When it cannot, the
 * answer names the cause and the one fix, from what bwrap said and the kernel settings that explain it:
 * bwrap missing, unprivileged user namespaces switched off (Debian's sysctl, or a limit of 0), Ubuntu's
 * AppArmor restriction of them, or a container whose seccomp profile or missing capabilities refuse the
 * namespaces. ARENA_BWRAP names the bwrap program to use (tests point it at a missing or failing one).
 *
 * Beyond bwrap itself, {@link machineLimits} says which limits the kernel enforces on each bot here (a
 * memory and a cpuset control group, a uid of its own, no user namespace, the disk budget) and what is
 * left open where one cannot be had (only rlimits for memory, a pin the bot can widen, ...).
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolveExecutable } from '../transport/process/bot-limits.ts';
import { runCommand, type CommandRun } from '../transport/process/run-command.ts';
import { bwrapArgs, type SandboxPlan } from './bwrap-args.ts';
import { groupSupport, type GroupSupport } from './limits/bot-cgroup.ts';
import { noUsernsFilter } from './limits/no-userns-filter.ts';
import { UID_POOL } from './limits/uid-pool.ts';
import { systemPaths } from './system-paths.ts';

/** Whether bots can be confined here, and with what; else the cause and the fix, each one short phrase. */
export type SandboxSupport =
  | { readonly ok: true; readonly bwrap: string; readonly setpriv?: string }
  | { readonly ok: false; readonly cause: string; readonly fix: string };

/** What the probe looks at; every part replaceable for tests. */
export interface ProbeOptions {
  /** The bwrap to use: a path, or a name looked up on PATH. Default $ARENA_BWRAP, else bwrap. */
  readonly bwrap?: string;
  /** Where bwrap and setpriv are looked for; default PATH, then the system's program folders. */
  readonly path?: string;
  /** Running as root (then setpriv is needed, and used). */
  readonly root?: boolean;
  /** Reads a sysctl by its dotted name (kernel.unprivileged_userns_clone), undefined where absent. */
  readonly sysctl?: (name: string) => string | undefined;
  /** Whether the arena runs inside a container. */
  readonly container?: boolean;
}

function readSysctl(name: string): string | undefined {
  try {
    return readFileSync(`/proc/sys/${name.replace(/\./g, '/')}`, 'utf8').trim();
  } catch {
    return undefined;
  }
}

const SYSTEM_BIN = ['/usr/bin', '/bin', '/usr/sbin', '/sbin', '/usr/local/bin'];

const inContainer = (): boolean => existsSync('/.dockerenv') || existsSync('/run/.containerenv');

/** One line of what bwrap said (its last non-empty line: the error, after any usage text). */
function said(run: CommandRun): string {
  const lines = run.stderr.split('\n').map((l) => l.trim()).filter(Boolean);
  return (lines[lines.length - 1] ?? run.error ?? `exit code ${run.status}`).slice(0, 200);
}

/** Why bwrap failed, from what it said and the kernel's settings. */
export function explainFailure(message: string, o: { root: boolean; sysctl: (name: string) => string | undefined; container: boolean }): { cause: string; fix: string } {
  if (!o.root) {
    if (o.sysctl('kernel.unprivileged_userns_clone') === '0') {
      return { cause: 'unprivileged user namespaces are switched off (kernel.unprivileged_userns_clone = 0)', fix: 'sysctl -w kernel.unprivileged_userns_clone=1 (and in /etc/sysctl.d/ to keep it)' };
    }
    if (o.sysctl('user.max_user_namespaces') === '0') {
      return { cause: 'user namespaces are limited to none (user.max_user_namespaces = 0)', fix: 'sysctl -w user.max_user_namespaces=15000 (and in /etc/sysctl.d/ to keep it)' };
    }
    if (o.sysctl('kernel.apparmor_restrict_unprivileged_userns') === '1') {
      return {
        cause: "Ubuntu's AppArmor forbids unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns = 1)",
        fix: 'sysctl -w kernel.apparmor_restrict_unprivileged_userns=0, or give bwrap an AppArmor profile that allows userns',
      };
    }
  }
  if (o.container && /not permitted|permission denied/i.test(message)) {
    return {
      cause: `this container refuses the namespaces bwrap needs (bwrap said: ${message})`,
      fix: 'run the container with --security-opt seccomp=unconfined --cap-add SYS_ADMIN (or run the arena outside it)',
    };
  }
  return { cause: `bwrap cannot make a sandbox here (it said: ${message})`, fix: 'run the arena where bwrap works (try: bwrap --ro-bind / / true)' };
}

/** Probes now (no cache); see the module comment. */
export function probeSandbox(o: ProbeOptions = {}): SandboxSupport {
  // System tools, found in the system's folders even when PATH leaves them out.
  const path = o.path ?? [process.env.PATH ?? '', ...SYSTEM_BIN].join(':');
  const root = o.root ?? process.getuid?.() === 0;
  const name = o.bwrap ?? (process.env.ARENA_BWRAP || 'bwrap');
  const bwrap = resolveExecutable(name, undefined, path);
  if (!bwrap) {
    const where = name === 'bwrap' ? 'no bwrap on PATH' : `${o.bwrap === undefined ? 'ARENA_BWRAP=' : ''}${name} is not a program`;
    return { ok: false, cause: `bubblewrap is not installed (${where})`, fix: 'apt-get install bubblewrap (dnf/pacman: bubblewrap)' };
  }
  let setpriv: string | undefined;
  if (root) {
    setpriv = resolveExecutable('setpriv', undefined, path);
    if (!setpriv) return { ok: false, cause: 'setpriv, which a root referee needs to drop to an unprivileged uid, is missing', fix: 'apt-get install util-linux' };
  }
  const plan: SandboxPlan = {
    system: systemPaths(),
    etc: [],
    readOnly: [],
    writable: [],
    chdir: '/',
    tmpBytes: 1024 * 1024,
    ...(setpriv ? { user: { setpriv, uid: 65534, gid: 65534 } } : {}),
  };
  const { options, prefix } = bwrapArgs(plan, { PATH: '/usr/bin:/bin' });
  const run = runCommand(bwrap, [...options, '--', ...prefix, '/usr/bin/true'], { timeoutMs: 10_000 });
  if (run.status === 0) return { ok: true, bwrap, ...(setpriv ? { setpriv } : {}) };
  const fix = explainFailure(said(run), { root, sysctl: o.sysctl ?? readSysctl, container: o.container ?? inContainer() });
  return { ok: false, ...fix };
}

let cached: SandboxSupport | undefined;

/** This process's answer, probed on first use. */
export function sandboxSupport(): SandboxSupport {
  cached ??= probeSandbox();
  return cached;
}

/** The one line naming what is missing and how to fix it. */
export function describeUnsupported(s: Extract<SandboxSupport, { ok: false }>): string {
  return `cannot confine bots on this machine: ${s.cause}; fix: ${s.fix}`;
}

/** What the kernel enforces on each confined bot here (`enforced`), and what is left open (`open`), one phrase each. */
export interface LimitsReport {
  readonly enforced: readonly string[];
  readonly open: readonly string[];
}

/** The report for a machine with these parts (pure; {@link machineLimits} gives this machine's). */
export function limitsReport(o: { readonly root: boolean; readonly groups: GroupSupport; readonly userFilter: boolean }): LimitsReport {
  const enforced: string[] = [];
  const open: string[] = [];
  const m = o.groups.memory;
  if (m) enforced.push(`memory: a control group per bot (cgroup v${m.version}), counting heap, shared memory, memfd and tmpfs files`);
  else open.push('memory: only RLIMIT_DATA per process and a watch of resident memory every 200 ms; a memfd, tmpfs files and shared memory are not counted (needs a memory control group this referee can make: run it as root, or delegate one)');
  if (o.groups.cpuset) enforced.push(`CPU pinning (--affinity): a cpuset per bot (cgroup v${o.groups.cpuset.version}), which the bot cannot widen`);
  else open.push('CPU pinning (--affinity): sched_setaffinity only, which a bot can widen to every CPU of the referee');
  if (o.root) enforced.push(`a uid of its own per running bot (${UID_POOL.first}-${UID_POOL.first + UID_POOL.size - 1}): no shared files, keyring or /proc/<pid>/root`);
  else open.push('every bot runs as your own uid (inside a user namespace): bots share its keyring, and what one bot can write under that uid another can read');
  if (!o.root) enforced.push('no user namespace inside the sandbox (--disable-userns)');
  else if (o.userFilter) enforced.push('no user namespace inside the sandbox (a seccomp filter)');
  else open.push(`user namespaces inside the sandbox: no seccomp filter is known for ${process.arch}, so a root referee does not start bots`);
  if (o.root) enforced.push('disk: scratch (/tmp, /dev/shm) and cache ($ARENA_CACHE) in one tmpfs of the disk budget per bot, counted against its memory');
  else open.push('disk: /tmp and /dev/shm are each a tmpfs of the disk budget, but the cache folder is bounded only by the file-size limit per file (one mounted budget for all three needs root)');
  return { enforced, open };
}

/** This machine's {@link limitsReport}. */
export function machineLimits(): LimitsReport {
  return limitsReport({ root: process.getuid?.() === 0, groups: groupSupport(), userFilter: noUsernsFilter() !== undefined });
}
