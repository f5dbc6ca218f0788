/**
 * Finding and killing every process a bot started, including the ones a process-group kill misses: a
 * daemon that called setsid() after a double fork has its own session and group and init as its parent.
 * Each launch carries its own tag in its environment (ARENA_BOT_TAG=<session>.<n>); children inherit the
 * environment, so a sweep of /proc finds them wherever they went. A bot that deliberately clears its
 * environment for a child can still hide that child from the tag; the process watch (process-watch.ts)
 * remembers such children by parentage while they are alive and hands them to the sweep. This is for bots
 * run unconfined (--no-sandbox): a sandboxed bot has its own pid namespace, which nothing in it escapes
 * and which ends with the bot (src/sandbox); its processes are its tree (process-tree.ts), swept by
 * {@link sweepKnown} without reading any other process's environment.
 */
import { randomBytes } from 'node:crypto';
import { environHas, listPids, readEnviron, readStat } from './proc-fs.ts';

/** The environment variable that tags every process of one launch. */
export const ENV_BOT_TAG = 'ARENA_BOT_TAG';

/** This referee process's share of the tag namespace, so two referees on one machine never touch each other's bots. */
const SESSION = randomBytes(6).toString('hex');
let launches = 0;

/** A fresh tag for one launch of one bot. */
export function newLaunchTag(): string {
  return `${SESSION}.${++launches}`;
}

/** The tag's `NAME=value` form as it appears in /proc/<pid>/environ. */
export function tagEntry(tag: string): string {
  return `${ENV_BOT_TAG}=${tag}`;
}

/** One process known by pid and start time (pids are reused; the pair is not). */
export interface ProcessId {
  readonly pid: number;
  readonly startTime: number;
}

function kill(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false; // ESRCH: already gone; EPERM: not ours
  }
}

/** SIGKILLs a process group; false when it no longer exists. */
export function killGroup(pgid: number): boolean {
  return kill(-pgid, 'SIGKILL');
}

/** Most sweep rounds: each round kills what the previous one found, so only a process forking faster than a scan survives one. */
const ROUNDS = 20;

/**
 * SIGKILLs every live process whose environment matches `entry` (exactly, or as a prefix when `partial`),
 * and every process of `known` still alive with the same start time, until a scan finds nothing new; with
 * no `entry`, only `known` (and /proc is not scanned). Synchronous, so it also works in a process 'exit'
 * hook. Returns how many processes were signalled.
 */
export function sweep(entry: string | undefined, known: Iterable<ProcessId> = [], partial = false): number {
  const signalled = new Set<number>();
  const extra = [...known];
  for (let round = 0; round < ROUNDS; round++) {
    const found: number[] = [];
    for (const pid of entry === undefined ? [] : listPids()) {
      if (pid === process.pid || signalled.has(pid)) continue;
      const env = readEnviron(pid);
      if (env && env.length > 0 && environHas(env, entry!, partial)) found.push(pid);
    }
    for (const p of extra) {
      if (signalled.has(p.pid)) continue;
      const st = readStat(p.pid);
      if (st && st.startTime === p.startTime && st.state !== 'Z') found.push(p.pid);
    }
    if (found.length === 0) break;
    for (const pid of found) if (kill(pid, 'SIGKILL')) signalled.add(pid);
  }
  return signalled.size;
}

/** Kills every process of one launch: see {@link sweep}. */
export function sweepLaunch(tag: string, known: Iterable<ProcessId> = []): number {
  return sweep(tagEntry(tag), known);
}

/** Kills the processes of `known` still alive (a sandboxed bot's tree): see {@link sweep}. */
export function sweepKnown(known: Iterable<ProcessId>): number {
  return sweep(undefined, known);
}

/** Kills every tagged process of every launch this referee process ever made. */
export function sweepSession(): number {
  return sweep(`${ENV_BOT_TAG}=${SESSION}.`, [], true);
}
