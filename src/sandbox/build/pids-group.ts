/**
 * A pids control group per build (cgroup v1 `pids`, or v2 where this referee's group hands the `pids`
 * controller down): a hard cap on the processes and threads the build has alive at once, counted by the
 * kernel for everything born inside (a fork bomb stops at the cap, whatever uid or session it makes), and
 * a counter of forks refused at the cap (`pids.events`' `max`), so the failure is said as what it was.
 *
 * Groups live in `<the referee's own group>/puzzle-arena-builds/<referee pid>-<n>`; the build's first
 * process joins before it execs the sandbox. Groups of a referee that died are removed by the next one.
 */
import { mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { alive, mountPoints, ownGroup } from '../../transport/process/cpu-cgroup.ts';

const PARENT = 'puzzle-arena-builds';

/** One build's pids group. */
export interface PidsGroup {
  /** The `cgroup.procs` file the build's first process writes its pid into. */
  readonly procs: string;
  /** How many forks the kernel refused at the cap so far. */
  refusedForks(): number;
  /** Removes the group (retried while its last processes are released). Idempotent. */
  remove(): void;
  /**
   * Resolves once no process is left in the group (killing any still there), or after `ms`: the sandbox's
   * processes die with it, but the kernel reaps them a moment after the sandbox itself is gone.
   */
  drain(ms: number): Promise<void>;
}

let serial = 0;

const read = (file: string): string | undefined => {
  try {
    return readFileSync(file, 'latin1');
  } catch {
    return undefined;
  }
};

/** The folder under which build groups are made here, or undefined (no pids hierarchy we may write). */
function parentDir(): string | undefined {
  const mounts = mountPoints();
  const v1 = mounts.find((m) => m.type === 'cgroup' && m.options.includes('pids'));
  const v1Own = ownGroup('pids');
  let up: string | undefined;
  if (v1 && v1Own !== undefined) up = join(v1.dir, v1Own);
  else {
    const v2 = mounts.find((m) => m.type === 'cgroup2');
    const v2Own = ownGroup('');
    if (!v2 || v2Own === undefined) return undefined;
    up = join(v2.dir, v2Own);
    // v2: only where pids is already handed down to children (this referee enables nothing itself).
    if (!(read(join(up, 'cgroup.subtree_control')) ?? '').split(/\s+/).includes('pids')) return undefined;
  }
  const dir = join(up, PARENT);
  try {
    mkdirSync(dir, { recursive: true });
  } catch {
    return undefined;
  }
  tidy(dir);
  return dir;
}

/** Removes groups of referees that are gone. */
function tidy(dir: string): void {
  for (const name of readdirSync(dir)) {
    const owner = Number(name.split('-')[0]);
    if (!Number.isInteger(owner) || owner <= 0 || owner === process.pid || alive(owner)) continue;
    try {
      rmdirSync(join(dir, name));
    } catch {
      // still holds a process, or not ours
    }
  }
}

function removeLater(dir: string, tries: number): void {
  try {
    rmdirSync(dir);
  } catch {
    if (tries > 1) setTimeout(() => removeLater(dir, tries - 1), 100).unref();
  }
}

/** A new group allowing `max` processes, or undefined where none can be made (the caller falls back to RLIMIT_NPROC). */
export function createPidsGroup(max: number): PidsGroup | undefined {
  const parent = parentDir();
  if (!parent) return undefined;
  const dir = join(parent, `${process.pid}-${++serial}`);
  try {
    mkdirSync(dir);
    writeFileSync(join(dir, 'pids.max'), String(Math.max(1, Math.floor(max))));
  } catch {
    removeLater(dir, 1);
    return undefined;
  }
  let removed = false;
  return {
    procs: join(dir, 'cgroup.procs'),
    refusedForks: () => Number(/^max (\d+)$/m.exec(read(join(dir, 'pids.events')) ?? '')?.[1] ?? 0),
    remove() {
      if (removed) return;
      removed = true;
      removeLater(dir, 20);
    },
    async drain(ms) {
      const until = Date.now() + ms;
      for (;;) {
        const pids = (read(join(dir, 'cgroup.procs')) ?? '').split('\n').filter((l) => /^\d+$/.test(l)).map(Number);
        if (pids.length === 0 || Date.now() >= until) return;
        for (const pid of pids) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // gone meanwhile
          }
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
}
