/**
 * A control group per running bot, for the limits the kernel enforces on the whole bot: memory (which,
 * unlike RLIMIT_DATA, counts a memfd, tmpfs files and shared memory, whoever maps them or not) and a
 * cpuset (a pin the bot cannot widen: sched_setaffinity inside it cannot name a CPU outside the set).
 *
 * cgroup v1 (a `memory` and a `cpuset` hierarchy) is used where mounted, else cgroup v2 where this
 * referee may enable the controllers below its own group. Groups live in `<the referee's own
 * group>/puzzle-arena-bots/<referee pid>-<n>`; the bot joins them before it runs anything of its own
 * (the outer shell of the sandbox writes its pid into each `cgroup.procs`, then execs bwrap), so every
 * process it ever starts is born inside. The group is removed once the bot is gone; groups of a referee
 * that died are removed by the next one.
 *
 * An out-of-memory kill is read from the kernel's own counter (v1 `memory.oom_control`'s oom_kill,
 * v2 `memory.events`' oom_kill), so the verdict says `memory` however the bot died of it.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { alive, mountPoints, ownGroup } from '../../transport/process/cpu-cgroup.ts';

const PARENT = 'puzzle-arena-bots';

/** Where per-bot groups can be made here, found once by {@link groupSupport}. */
export interface GroupSupport {
  /** The folder under which memory groups are made, and its version; absent: memory only through rlimits. */
  readonly memory?: { readonly version: 1 | 2; readonly dir: string };
  /** Likewise for cpusets; absent: pinning only through sched_setaffinity (the bot can widen it). */
  readonly cpuset?: { readonly version: 1 | 2; readonly dir: string };
}

/** One bot's groups. */
export interface BotGroup {
  /** The `cgroup.procs` files the bot's first process writes its pid into (each hierarchy once). */
  readonly procs: readonly string[];
  /** How many processes of the bot the kernel has killed for memory so far (0 where not counted). */
  oomKills(): number;
  /** Removes the groups (now, or retried a few times while the last processes are released). Idempotent. */
  remove(): void;
}

let probed: GroupSupport | undefined;
let serial = 0;
const mine = new Set<string>();

const read = (file: string): string | undefined => {
  try {
    return readFileSync(file, 'latin1');
  } catch {
    return undefined;
  }
};
const write = (file: string, text: string): boolean => {
  try {
    writeFileSync(file, text);
    return true;
  } catch {
    return false;
  }
};

/** Removes groups of referees that are gone (their names start with the referee's pid). */
function tidy(dir: string): void {
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const owner = Number(name.split('-')[0]);
    if (!Number.isInteger(owner) || owner <= 0 || owner === process.pid || alive(owner)) continue;
    try {
      rmdirSync(join(dir, name));
    } catch {
      // still holds a process, or not a group of ours
    }
  }
}

/** Whether a child group can be made (and removed) in `dir`: the parent may exist, made by root, where this referee may not write. */
function canMakeGroups(dir: string): boolean {
  const probe = join(dir, `${process.pid}-probe`);
  try {
    mkdirSync(probe);
    rmdirSync(probe);
    return true;
  } catch {
    return false;
  }
}

/** The v1 parent folder for `controller`, made and ready for children; undefined where it cannot be. */
function v1Parent(controller: 'memory' | 'cpuset'): string | undefined {
  const mount = mountPoints().find((m) => m.type === 'cgroup' && m.options.includes(controller));
  const own = ownGroup(controller);
  if (!mount || own === undefined) return undefined;
  const dir = join(mount.dir, own, PARENT);
  try {
    mkdirSync(dir, { recursive: true });
  } catch {
    return undefined;
  }
  if (controller === 'cpuset') {
    // A v1 cpuset starts empty and takes no process until it has CPUs and memory nodes: the parent's.
    const up = join(mount.dir, own);
    for (const f of ['cpuset.cpus', 'cpuset.mems']) {
      const now = read(join(dir, f))?.trim();
      if (!now && !write(join(dir, f), (read(join(up, f)) ?? '').trim())) return undefined;
    }
  }
  if (!canMakeGroups(dir)) return undefined;
  tidy(dir);
  return dir;
}

/** The v2 parent folder with `controllers` enabled for its children; undefined where they cannot be. */
function v2Parent(controllers: readonly string[]): string | undefined {
  const mount = mountPoints().find((m) => m.type === 'cgroup2');
  const own = ownGroup('');
  if (!mount || own === undefined) return undefined;
  const up = join(mount.dir, own);
  const have = (read(join(up, 'cgroup.controllers')) ?? '').split(/\s+/);
  if (!controllers.every((c) => have.includes(c))) return undefined;
  const dir = join(up, PARENT);
  try {
    mkdirSync(dir, { recursive: true });
  } catch {
    return undefined;
  }
  // The referee's own group must hand the controllers down (refused where it holds processes and is not
  // the root: then only a delegated, empty group would do, and v2 is reported as unavailable).
  const on = controllers.map((c) => `+${c}`).join(' ');
  const subtree = (folder: string) => (read(join(folder, 'cgroup.subtree_control')) ?? '').split(/\s+/);
  if (!controllers.every((c) => subtree(up).includes(c)) && !write(join(up, 'cgroup.subtree_control'), on)) return undefined;
  if (!controllers.every((c) => subtree(dir).includes(c)) && !write(join(dir, 'cgroup.subtree_control'), on)) return undefined;
  if (!canMakeGroups(dir)) return undefined;
  tidy(dir);
  return dir;
}

/** What this machine offers (probed once per process; `fresh` probes again, for tests). */
export function groupSupport(fresh = false): GroupSupport {
  if (probed && !fresh) return probed;
  const v1Memory = v1Parent('memory');
  const v1Cpuset = v1Parent('cpuset');
  const memory = v1Memory ? { version: 1 as const, dir: v1Memory } : ((d) => (d ? { version: 2 as const, dir: d } : undefined))(v2Parent(['memory']));
  const cpuset = v1Cpuset ? { version: 1 as const, dir: v1Cpuset } : ((d) => (d ? { version: 2 as const, dir: d } : undefined))(v2Parent(['cpuset']));
  probed = { ...(memory ? { memory } : {}), ...(cpuset ? { cpuset } : {}) };
  return probed;
}

/** Configures one new group folder; false when the kernel refused a setting. */
function configure(kind: 'memory' | 'cpuset', version: 1 | 2, dir: string, o: { memoryBytes: number; cpus?: string }): boolean {
  if (kind === 'memory') {
    const bytes = String(Math.floor(o.memoryBytes));
    if (version === 1) {
      if (!write(join(dir, 'memory.limit_in_bytes'), bytes)) return false;
      // With swap, memory+swap gets the same limit, so shared memory cannot be pushed out to swap instead.
      if (existsSync(join(dir, 'memory.memsw.limit_in_bytes'))) write(join(dir, 'memory.memsw.limit_in_bytes'), bytes);
      return true;
    }
    if (!write(join(dir, 'memory.max'), bytes)) return false;
    if (existsSync(join(dir, 'memory.swap.max'))) write(join(dir, 'memory.swap.max'), '0');
    return true;
  }
  if (o.cpus === undefined) return true;
  if (version === 1 && !write(join(dir, 'cpuset.mems'), (read(join(dir, '..', 'cpuset.mems')) ?? '').trim())) return false;
  return write(join(dir, 'cpuset.cpus'), o.cpus);
}

function removeLater(dir: string, tries: number): void {
  try {
    rmdirSync(dir);
    mine.delete(dir);
  } catch {
    if (tries > 1) setTimeout(() => removeLater(dir, tries - 1), 100).unref();
  }
}

let hooked = false;
function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.on('exit', () => {
    for (const d of mine) {
      try {
        rmdirSync(d);
      } catch {
        // a bot still dying: the next referee removes it
      }
    }
  });
}

/**
 * New groups for one bot: memory limited to `memoryBytes`, and, given `cpus` (a kernel CPU list), a
 * cpuset of those CPUs. Undefined when the machine has neither; a string when a group could not be set
 * up as asked (the bot must then not start: its limits would be weaker than the probe promised).
 */
export function createBotGroup(o: { memoryBytes: number; cpus?: string }, support = groupSupport()): BotGroup | string | undefined {
  const made: Array<{ kind: 'memory' | 'cpuset'; version: 1 | 2; dir: string }> = [];
  const name = `${process.pid}-${++serial}`;
  const wanted = [
    ...(support.memory ? [{ kind: 'memory' as const, ...support.memory }] : []),
    ...(support.cpuset && o.cpus !== undefined ? [{ kind: 'cpuset' as const, ...support.cpuset }] : []),
  ];
  for (const w of wanted) {
    // In v2 one folder serves both controllers.
    const dir = join(w.dir, name);
    const existing = made.find((m) => m.dir === dir);
    if (!existing) {
      try {
        mkdirSync(dir);
      } catch (e) {
        for (const m of made) removeLater(m.dir, 1);
        return `cannot make the bot's ${w.kind} control group ${dir}: ${(e as Error).message}`;
      }
      mine.add(dir);
      hookExit();
      made.push({ kind: w.kind, version: w.version, dir });
    }
    if (!configure(w.kind, w.version, dir, o)) {
      for (const m of made) removeLater(m.dir, 1);
      return `the kernel refused the bot's ${w.kind} limit in ${dir}`;
    }
  }
  if (made.length === 0) return undefined;
  const memoryDir = made.find((m) => m.kind === 'memory');
  let removed = false;
  return {
    procs: [...new Set(made.map((m) => join(m.dir, 'cgroup.procs')))],
    oomKills() {
      if (!memoryDir) return 0;
      const file = memoryDir.version === 1 ? 'memory.oom_control' : 'memory.events';
      const m = /^oom_kill (\d+)$/m.exec(read(join(memoryDir.dir, file)) ?? '');
      return m ? Number(m[1]) : 0;
    },
    remove() {
      if (removed) return;
      removed = true;
      for (const m of made) removeLater(m.dir, 20);
    },
  };
}
