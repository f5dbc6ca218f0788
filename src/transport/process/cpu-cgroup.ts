/**
 * A per-bot CPU counter kept by the kernel: a control group of its own whose accumulated CPU time is one
 * file, read with one pread. Every process the bot starts is born into the group, whoever its parent is and
 * whether or not it is still in the bot's process tree, and a process that ended leaves its time behind in
 * the counter, so nothing has to be walked. The counter is the same scheduler runtime that schedstat
 * reports per thread, summed by the kernel.
 *
 * cgroup v1's cpuacct controller (cpuacct.usage, nanoseconds) is used where it is mounted, else cgroup v2's
 * cpu.stat (usage_usec, always present in v2). Creating a group and moving a process into it needs write
 * access to the hierarchy (root, or a delegated subtree); where that is missing, {@link openCpuGroup} says
 * undefined once and for all and the caller walks /proc instead.
 *
 * Groups live in `<the referee's own group>/puzzle-arena/<referee pid>-<n>`. A group is removed once its bot
 * is gone; a referee killed before it could tidy leaves empty groups behind, which the next referee removes.
 */
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HAVE_PROCFS } from './proc-fs.ts';

/** Where this machine keeps per-group CPU time, as found by {@link cpuGroupRoot}. */
export interface CpuGroupRoot {
  /** cgroup v1 cpuacct or v2 unified. */
  readonly version: 1 | 2;
  /** This referee's folder of groups (created on first use). */
  readonly dir: string;
}

/** How moving a process into a group went: `gone` (no such process), `refused` (not allowed here). */
export type AddOutcome = 'ok' | 'gone' | 'refused';

/** One bot's group. */
export interface CpuGroup {
  /** Moves a process (and all its threads) into the group. */
  add(pid: number): AddOutcome;
  /**
   * The processes in the group now (one read of its cgroup.procs), empty if unreadable. Moving a process costs
   * the kernel a wait for every CPU (10–25 ms on a small VM), even one already there: the first read of a
   * meter skips the processes that were born into the group.
   */
  members(): Set<number>;
  /** True while the process the group was made for (its root) exists; false once it has ended. */
  alive(): boolean;
  /** CPU nanoseconds every process that was ever in the group has used while in it; undefined if unreadable. */
  usageNs(): number | undefined;
  /** Closes the counter and removes the group once it is empty (now, or at a later tidy). Idempotent. */
  remove(): void;
}

const PARENT = 'puzzle-arena';
let probed: CpuGroupRoot | null | undefined;
let serial = 0;
/** This referee's groups, by folder: whether each one's bot is still alive. */
const mine = new Map<string, () => boolean>();
let hooked = false;

/** The cgroup hierarchies mounted here (v1 `cgroup` and v2 `cgroup2`), with their mount options. */
export function mountPoints(): Array<{ type: string; dir: string; options: string[] }> {
  try {
    return readFileSync('/proc/self/mounts', 'latin1')
      .split('\n')
      .map((l) => l.split(' '))
      .filter((f) => f.length >= 4 && (f[2] === 'cgroup' || f[2] === 'cgroup2'))
      .map((f) => ({ type: f[2]!, dir: f[1]!.replace(/\\040/g, ' '), options: f[3]!.split(',') }));
  } catch {
    return [];
  }
}

/** This process's own group in the v1 hierarchy with `controller`, or in the v2 one (controller ''). */
export function ownGroup(controller: string): string | undefined {
  try {
    for (const line of readFileSync('/proc/self/cgroup', 'latin1').split('\n')) {
      const [, list, path] = /^\d+:([^:]*):(.*)$/.exec(line) ?? [];
      if (path !== undefined && list!.split(',').includes(controller)) return path;
    }
  } catch {
    // no /proc/self/cgroup: no groups
  }
  return undefined;
}

function candidates(): CpuGroupRoot[] {
  const out: CpuGroupRoot[] = [];
  const mounts = mountPoints();
  const v1 = mounts.find((m) => m.type === 'cgroup' && m.options.includes('cpuacct'));
  const v1Own = ownGroup('cpuacct');
  if (v1 && v1Own !== undefined) out.push({ version: 1, dir: join(v1.dir, v1Own, PARENT) });
  const v2 = mounts.find((m) => m.type === 'cgroup2');
  const v2Own = ownGroup('');
  if (v2 && v2Own !== undefined) out.push({ version: 2, dir: join(v2.dir, v2Own, PARENT) });
  return out;
}

/**
 * The first hierarchy where this referee can make its folder of groups and read a counter there (tried once,
 * see works), or undefined. `version` restricts the choice (tests).
 */
export function cpuGroupRoot(version?: 1 | 2): CpuGroupRoot | undefined {
  if (version === undefined && probed !== undefined) return probed ?? undefined;
  let found: CpuGroupRoot | undefined;
  if (HAVE_PROCFS) {
    for (const root of candidates()) {
      if (version !== undefined && root.version !== version) continue;
      if (works(root)) {
        found = root;
        break;
      }
    }
  }
  if (version === undefined) probed = found ?? null;
  return found;
}

/**
 * Can this referee's folder of groups be made (or is it there) and its counter read? The folder is a group
 * itself, so this is the same check a bot's group would pass; no group is made and removed for it (making one
 * costs a cgroup v1 hierarchy 10–25 ms on a small VM). A hierarchy that then refuses a bot's group or its
 * process is found at the first bot: the meter walks /proc for it (see disableCpuGroups).
 */
function works(root: CpuGroupRoot): boolean {
  try {
    mkdirSync(root.dir, { recursive: true });
    readFileSync(join(root.dir, root.version === 1 ? 'cpuacct.usage' : 'cpu.stat'), 'latin1');
    return true;
  } catch {
    return false;
  }
}

/** Stops using groups in this process (a hierarchy that refused to take a bot): the meters walk /proc. */
export function disableCpuGroups(): void {
  probed = null;
}

/** Removes groups left by referees that are gone, and those of ours whose bot has ended meanwhile. */
function tidy(root: CpuGroupRoot): void {
  let names: string[];
  try {
    names = readdirSync(root.dir);
  } catch {
    return;
  }
  for (const name of names) {
    const owner = Number(name.split('-')[0]);
    const dir = join(root.dir, name);
    if (owner === process.pid ? (mine.get(dir)?.() ?? false) : alive(owner)) continue;
    try {
      rmdirSync(dir);
      mine.delete(dir);
    } catch {
      // still holds a process: later
    }
  }
}

/** Removes an ended bot's group; its last processes may take a moment to be released, so it tries again. */
function removeLater(dir: string, tries: number): void {
  try {
    rmdirSync(dir);
    mine.delete(dir);
  } catch {
    // Still being released; failing that, a later tidy or the exit hook removes it.
    if (tries > 1) setTimeout(() => mine.has(dir) && removeLater(dir, tries - 1), 100).unref();
  }
}

/** Whether a process with this pid exists (EPERM: it does, another user's). */
export function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A new, empty group under `root` for the process `rootPid` (its liveness is watched through a /proc file
 * held open, which cannot be confused with a later process of the same pid), or undefined when one cannot
 * be made. Old groups whose bot has ended are removed first.
 */
export function createGroup(root: CpuGroupRoot, rootPid: number): CpuGroup | undefined {
  tidy(root);
  const dir = join(root.dir, `${process.pid}-${++serial}`);
  let fd: number;
  let life: number;
  try {
    life = openSync(`/proc/${rootPid}/schedstat`, 'r');
  } catch {
    return undefined;
  }
  try {
    mkdirSync(dir);
    fd = openSync(join(dir, root.version === 1 ? 'cpuacct.usage' : 'cpu.stat'), 'r');
  } catch {
    closeSync(life);
    try {
      rmdirSync(dir);
    } catch {
      // never made
    }
    return undefined;
  }
  if (!hooked) {
    hooked = true;
    process.on('exit', () => {
      for (const d of mine.keys()) {
        try {
          rmdirSync(d);
        } catch {
          // a bot still dying: the next referee removes it
        }
      }
    });
  }
  const buf = Buffer.allocUnsafe(root.version === 1 ? 32 : 512);
  const probe = Buffer.allocUnsafe(64);
  let open = true;
  let ended = false;
  const alive = (): boolean => {
    if (ended) return false;
    try {
      readSync(life, probe, 0, probe.length, 0);
      return true;
    } catch {
      ended = true;
      closeSync(life);
      return false;
    }
  };
  mine.set(dir, alive);
  return {
    add(pid) {
      try {
        writeFileSync(join(dir, 'cgroup.procs'), String(pid));
        return 'ok';
      } catch (e) {
        return (e as NodeJS.ErrnoException).code === 'ESRCH' ? 'gone' : 'refused';
      }
    },
    members() {
      try {
        return new Set(readFileSync(join(dir, 'cgroup.procs'), 'latin1').split('\n').filter(Boolean).map(Number));
      } catch {
        return new Set();
      }
    },
    alive,
    usageNs() {
      if (!open) return undefined;
      let n: number;
      try {
        n = readSync(fd, buf, 0, buf.length, 0);
      } catch {
        return undefined;
      }
      if (root.version === 1) {
        const ns = Number(buf.toString('latin1', 0, n).trim());
        return Number.isFinite(ns) ? ns : undefined;
      }
      const m = /^usage_usec (\d+)$/m.exec(buf.toString('latin1', 0, n));
      return m ? Number(m[1]) * 1000 : undefined;
    },
    remove() {
      if (!open) return;
      open = false;
      closeSync(fd);
      if (!ended) {
        ended = true;
        closeSync(life);
      }
      removeLater(dir, 5);
    },
  };
}
