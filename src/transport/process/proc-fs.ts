/**
 * Reading Linux's /proc: the process table as the kernel sees it, without spawning `ps`. Every reader
 * returns undefined when the process is gone (or /proc is absent), because a process can exit between
 * listing it and reading it; nothing here throws.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** True where /proc describes processes the way this module reads it (Linux). */
export const HAVE_PROCFS = process.platform === 'linux' && existsSync('/proc/self/stat');

/** The fields of /proc/<pid>/stat this project uses. */
export interface ProcStat {
  readonly pid: number;
  readonly ppid: number;
  /** Process group and session: a bot that calls setsid() leaves both. */
  readonly pgid: number;
  readonly sid: number;
  /** R, S, D, Z (zombie: dead, waiting to be reaped), T, ... */
  readonly state: string;
  /** User + system CPU time in clock ticks, of every thread the process has had. */
  readonly cpuTicks: number;
  /** User + system CPU time of the children it has waited for (and theirs), clock ticks. */
  readonly childCpuTicks: number;
  /** Start time in clock ticks since boot; with the pid it names one process (pids are reused). */
  readonly startTime: number;
}

/** Every pid in /proc, or [] where there is no /proc. */
export function listPids(): number[] {
  if (!HAVE_PROCFS) return [];
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const pids: number[] = [];
  for (const n of names) {
    const c = n.charCodeAt(0);
    if (c >= 48 && c <= 57) pids.push(Number(n));
  }
  return pids;
}

function read(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/** Parses /proc/<pid>/stat. The command name may hold spaces and parentheses, so fields start after the last ')'. */
export function readStat(pid: number): ProcStat | undefined {
  const buf = read(`/proc/${pid}/stat`);
  if (!buf) return undefined;
  const text = buf.toString('latin1');
  const close = text.lastIndexOf(')');
  if (close < 0) return undefined;
  // f[0] is field 3 (state) of proc(5).
  const f = text.slice(close + 2).split(' ');
  if (f.length < 20) return undefined;
  return {
    pid,
    state: f[0],
    ppid: Number(f[1]),
    pgid: Number(f[2]),
    sid: Number(f[3]),
    cpuTicks: Number(f[11]) + Number(f[12]),
    childCpuTicks: Number(f[13]) + Number(f[14]),
    startTime: Number(f[19]),
  };
}

/**
 * Clock ticks per second of /proc's CPU times (USER_HZ). Fixed at 100 in the kernel's user ABI on every
 * architecture Node runs on, whatever the kernel's internal HZ.
 */
export const TICKS_PER_SECOND = 100;

/** The thread ids of a process (its /proc/<pid>/task), or [] when it is gone. */
export function listThreads(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).map(Number);
  } catch {
    return [];
  }
}

/**
 * Nanoseconds one thread has run on a CPU (the first field of /proc/<pid>/task/<tid>/schedstat, the
 * scheduler's exact sum_exec_runtime), or undefined when unreadable (gone, or a kernel without it).
 */
export function readThreadRuntimeNs(pid: number, tid: number): number | undefined {
  const buf = read(`/proc/${pid}/task/${tid}/schedstat`);
  if (!buf) return undefined;
  const end = buf.indexOf(32);
  const ns = Number(buf.toString('latin1', 0, end < 0 ? buf.length : end));
  return Number.isFinite(ns) ? ns : undefined;
}

/**
 * The child processes a thread has started (/proc/<pid>/task/<tid>/children, which lists each child under
 * the thread that forked it), or undefined when the kernel does not offer the file.
 */
export function readThreadChildren(pid: number, tid: number): number[] | undefined {
  const buf = read(`/proc/${pid}/task/${tid}/children`);
  if (!buf) return undefined;
  const text = buf.toString('latin1').trim();
  return text ? text.split(' ').map(Number) : [];
}

/** The raw NUL-separated environment a process started with (empty for zombies and kernel threads). */
export function readEnviron(pid: number): Buffer | undefined {
  return read(`/proc/${pid}/environ`);
}

/** True when `environ` holds exactly `NAME=value` (`prefix` = "NAME=value"), or a value starting with it when `partial`. */
export function environHas(environ: Buffer, prefix: string, partial = false): boolean {
  for (let at = environ.indexOf(prefix); at !== -1; at = environ.indexOf(prefix, at + 1)) {
    if (at !== 0 && environ[at - 1] !== 0) continue;
    const end = at + Buffer.byteLength(prefix);
    if (partial || end === environ.length || environ[end] === 0) return true;
  }
  return false;
}

const RSS_ANON = /^RssAnon:\s+(\d+) kB$/m;
const RSS_SHMEM = /^RssShmem:\s+(\d+) kB$/m;

/**
 * Resident memory a process holds for itself, in bytes: anonymous pages (heap, stacks) plus shared memory
 * (which RLIMIT_DATA does not count). File-backed pages (the program's code, shared libraries) are left out:
 * they are shared with every other process running the same binary.
 */
export function readOwnMemory(pid: number): number | undefined {
  const buf = read(`/proc/${pid}/status`);
  if (!buf) return undefined;
  const text = buf.toString('latin1');
  const anon = RSS_ANON.exec(text);
  if (!anon) return undefined;
  const shmem = RSS_SHMEM.exec(text);
  return (Number(anon[1]) + (shmem ? Number(shmem[1]) : 0)) * 1024;
}
