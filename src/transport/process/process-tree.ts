/**
 * The processes of one bot found from its root alone: the root and everything below it, through each
 * thread's /proc/<pid>/task/<tid>/children. A few dozen small files per bot, whatever else runs on the
 * machine; no scan of /proc and no process's environment is read. Complete for a sandboxed bot, whose
 * root is the sandbox's outer process: nothing leaves its pid namespace, and an orphan inside is adopted by
 * the namespace's init, a child of the root.
 */
import { HAVE_PROCFS, listThreads, readStat, readThreadChildren } from './proc-fs.ts';
import type { ProcessId } from './process-sweep.ts';

/** Most processes one walk collects (a bot with more is far past any process limit; see bot-limits.ts). */
const MAX_PROCESSES = 4096;

/** True where the kernel lists each thread's children (CONFIG_PROC_CHILDREN), so a tree can be walked. */
export const TREE_WALK = HAVE_PROCFS && readThreadChildren(process.pid, process.pid) !== undefined;

/** One process of a tree: who it is and its parent. */
export interface TreeProcess extends ProcessId {
  readonly ppid: number;
}

/**
 * The live processes of the tree under `root` (the root first), or [] when the root is gone or its pid now
 * names another process. Zombies are left out: they hold nothing and cannot be killed again.
 */
export function processTree(root: ProcessId): TreeProcess[] {
  const rootStat = readStat(root.pid);
  if (!rootStat || rootStat.startTime !== root.startTime) return [];
  const out: TreeProcess[] = [];
  const seen = new Set<number>();
  const queue = [root.pid];
  while (queue.length > 0 && out.length < MAX_PROCESSES) {
    const pid = queue.pop()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    const st = pid === root.pid ? rootStat : readStat(pid);
    if (!st || st.state === 'Z') continue;
    out.push({ pid, startTime: st.startTime, ppid: st.ppid });
    for (const tid of listThreads(pid)) {
      const kids = readThreadChildren(pid, tid);
      if (kids) for (const k of kids) queue.push(k);
    }
  }
  return out;
}
