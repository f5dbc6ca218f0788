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
  /** User + system CPU time in clock ticks. */
  readonly cpuTicks: number;
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
    startTime: Number(f[19]),
  };
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
