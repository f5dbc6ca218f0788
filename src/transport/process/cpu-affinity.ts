/**
 * Pinning a bot to CPU cores (Linux): the bot is started through `taskset -c <cpus>` (util-linux), which
 * sets its affinity and then becomes the bot (same pid), so every thread and process the bot starts
 * inherits the set. Node cannot call sched_setaffinity(2) itself; taskset is on every mainstream distribution.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolveExecutable } from './bot-limits.ts';

/** Whether bots can be pinned here, and with what. */
export type AffinitySupport = { readonly ok: true; readonly taskset: string; readonly cpus: readonly number[] } | { readonly ok: false; readonly reason: string };

/** Parses a kernel CPU list ("0-3,8,10-11") into sorted CPU numbers; undefined when malformed. */
export function parseCpuList(text: string): number[] | undefined {
  const out = new Set<number>();
  for (const part of text.trim().split(',')) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!m) return undefined;
    const lo = Number(m[1]);
    const hi = m[2] === undefined ? lo : Number(m[2]);
    if (hi < lo || hi - lo > 65_535) return undefined;
    for (let c = lo; c <= hi; c++) out.add(c);
  }
  return [...out].sort((a, b) => a - b);
}

/** Formats CPU numbers as a kernel CPU list, ranges joined ("0-3,8"). */
export function formatCpuList(cpus: readonly number[]): string {
  const s = [...new Set(cpus)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < s.length; ) {
    let j = i;
    while (j + 1 < s.length && s[j + 1] === s[j] + 1) j++;
    parts.push(i === j ? String(s[i]) : `${s[i]}-${s[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}

/** The CPUs this process may run on (its own affinity, which a container or a taskset around it narrows). */
export function allowedCpus(): number[] | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const m = /^Cpus_allowed_list:\s*(\S+)$/m.exec(readFileSync('/proc/self/status', 'latin1'));
    return m ? parseCpuList(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Can bots be pinned on this machine: Linux, taskset on PATH, and a readable set of allowed CPUs. */
export function affinitySupport(path = process.env.PATH ?? ''): AffinitySupport {
  if (process.platform !== 'linux') return { ok: false, reason: `CPU pinning needs Linux (this is ${process.platform})` };
  const taskset = resolveExecutable('taskset', undefined, path);
  if (!taskset) return { ok: false, reason: 'CPU pinning needs taskset (util-linux) on PATH, and it is not there' };
  const cpus = allowedCpus();
  if (!cpus || cpus.length === 0) return { ok: false, reason: 'the CPUs this process may use cannot be read from /proc/self/status' };
  return { ok: true, taskset, cpus };
}

/** `command args` started pinned to `cpus` through `taskset`. */
export function wrapWithAffinity(command: string, args: readonly string[], cpus: readonly number[], taskset: string): { command: string; args: string[] } {
  return { command: taskset, args: ['-c', formatCpuList(cpus), command, ...args] };
}

/**
 * Pins one running thread (a kernel task id, e.g. a worker thread of this process) to `cpus` through
 * `taskset -p`; true when taskset succeeded. Used under --affinity for the exact oracle's thread and the
 * referee's own, which move to the core no bot runs on.
 */
export function pinTask(tid: number, cpus: readonly number[], taskset: string): boolean {
  try {
    execFileSync(taskset, ['-p', '-c', formatCpuList(cpus), String(tid)], { stdio: 'ignore', timeout: 5000 });
    return true;
  } catch {
    return false;
  }
}
