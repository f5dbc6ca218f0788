/**
 * The periodic check behind the per-process rlimits: which processes belong to which bot, and whether a
 * bot's processes together hold more memory or are more in number than its limits allow. One check per
 * tick serves every bot of the referee process, and it only runs while some bot is watched.
 *
 * A sandboxed bot carries no tag (its environment is the protocol's alone): it is known by its root, the
 * sandbox's outer process, whose descendants are all the bot's, since nothing leaves the sandbox's pid
 * namespace (an orphan there is adopted by the namespace's init, the root's child). Its processes are
 * found by walking that tree alone (process-tree.ts): a start reads no other process's files. The root and
 * that init are the sandbox's own processes: members, so they are swept, but not counted against the bot's
 * memory or process limits.
 *
 * An unconfined bot (--no-sandbox) can leave its tree (setsid after a double fork), so it is found by a scan
 * of /proc: a process belongs to it when it carries its launch tag (see process-sweep.ts) or descends from
 * a process that does. Membership is remembered by (pid, start time), so a child that cleared its
 * environment and was then orphaned is still known, and is handed to the final sweep. The scan runs only
 * while an unconfined bot is watched (or where the kernel cannot list a thread's children).
 */
import { HAVE_PROCFS, listPids, readEnviron, readOwnMemory, readStat } from './proc-fs.ts';
import type { ProcessId } from './process-sweep.ts';
import { ENV_BOT_TAG } from './process-sweep.ts';
import { processTree, TREE_WALK } from './process-tree.ts';

/** How often the watch looks, ms. The rlimits act at once; this catches what they cannot see. */
export const WATCH_INTERVAL_MS = 200;

/** Why the watch wants a bot dead. */
export type Breach =
  | { readonly kind: 'memory'; readonly usedBytes: number; readonly limitBytes: number }
  | { readonly kind: 'processes'; readonly count: number; readonly limit: number };

/** One bot under watch. */
export interface WatchTarget {
  readonly tag: string;
  /** A sandboxed bot: the sandbox's outer process (see the module comment). */
  readonly root?: ProcessId;
  readonly memoryBytes: number;
  readonly maxProcesses: number;
  /** Called once, at the first breach; the caller kills the bot. */
  onBreach(breach: Breach): void;
}

/** What the watch knows about one bot. */
export interface WatchHandle {
  /** Its processes seen so far and maybe still alive, for the final sweep. */
  members(): ProcessId[];
  /** The most memory its processes held together at one check, bytes. */
  readonly peakBytes: number;
  /** Stops watching. Idempotent. */
  stop(): void;
}

interface Known {
  readonly startTime: number;
  readonly ppid: number;
  /** Own launch tag, if the process carries one of ours. */
  readonly tag: string | undefined;
  /** Resolved owner: a watched tag, or null for "nobody's"; undefined until resolved. */
  owner?: string | null;
}

interface Entry {
  readonly target: WatchTarget;
  readonly members: Map<number, number>;
  peak: number;
  breached: boolean;
}

const watched = new Map<string, Entry>();
/** Root pid -> the tag of the sandboxed bot it starts. */
const roots = new Map<number, string>();
const table = new Map<number, Known>();
let timer: NodeJS.Timeout | undefined;

const TAG_PREFIX = Buffer.from(`${ENV_BOT_TAG}=`);

function tagOf(env: Buffer | undefined): string | undefined {
  if (!env) return undefined;
  for (let at = env.indexOf(TAG_PREFIX); at !== -1; at = env.indexOf(TAG_PREFIX, at + 1)) {
    if (at !== 0 && env[at - 1] !== 0) continue;
    const start = at + TAG_PREFIX.length;
    const end = env.indexOf(0, start);
    return env.toString('latin1', start, end === -1 ? env.length : end);
  }
  return undefined;
}

/** The watched tag `pid` belongs to, following parents; memoised in the table. */
function ownerOf(pid: number, depth = 0): string | null {
  const k = table.get(pid);
  if (!k) return null;
  if (k.owner !== undefined) return k.owner;
  let owner: string | null = null;
  const rooted = roots.get(pid);
  if (rooted !== undefined && watched.get(rooted)?.target.root?.startTime === k.startTime) owner = rooted;
  else if (k.tag !== undefined && watched.has(k.tag)) owner = k.tag;
  else if (k.ppid > 1 && depth < 64) owner = ownerOf(k.ppid, depth + 1);
  k.owner = owner;
  return owner;
}

/** True when `e`'s processes are found by walking its tree rather than by the scan. */
const walked = (e: Entry): boolean => TREE_WALK && e.target.root !== undefined;

/** The scan of /proc behind unconfined bots: refresh the table and attribute what is new. */
function scanTable(): void {
  const pids = listPids();
  const present = new Set(pids);
  for (const pid of table.keys()) if (!present.has(pid)) table.delete(pid);
  for (const pid of pids) {
    if (table.has(pid) || pid === process.pid) continue;
    const st = readStat(pid);
    if (!st) continue;
    table.set(pid, { startTime: st.startTime, ppid: st.ppid, tag: tagOf(readEnviron(pid)) });
  }
  for (const e of watched.values()) {
    if (walked(e)) continue;
    for (const [pid, start] of e.members) if (table.get(pid)?.startTime !== start) e.members.delete(pid);
  }
  for (const [pid, k] of table) {
    const owner = ownerOf(pid);
    const e = owner ? watched.get(owner) : undefined;
    if (e && !walked(e)) e.members.set(pid, k.startTime);
  }
}

/** One check: find every watched bot's processes (its tree, or the scan), check its limits. */
export function checkNow(): void {
  const parents = new Map<number, number>();
  if ([...watched.values()].some((e) => !walked(e))) scanTable();
  else table.clear();
  for (const e of watched.values()) {
    if (!walked(e)) continue;
    e.members.clear();
    for (const p of processTree(e.target.root!)) {
      e.members.set(p.pid, p.startTime);
      parents.set(p.pid, p.ppid);
    }
  }
  for (const e of watched.values()) {
    if (e.breached) continue;
    const t = e.target;
    let used = 0;
    let count = 0;
    for (const pid of e.members.keys()) {
      if (t.root && (pid === t.root.pid || (parents.get(pid) ?? table.get(pid)?.ppid) === t.root.pid)) continue;
      used += readOwnMemory(pid) ?? 0;
      count++;
    }
    e.peak = Math.max(e.peak, used);
    let breach: Breach | undefined;
    if (count > t.maxProcesses) breach = { kind: 'processes', count, limit: t.maxProcesses };
    else if (used > t.memoryBytes) breach = { kind: 'memory', usedBytes: used, limitBytes: t.memoryBytes };
    if (breach) {
      e.breached = true;
      t.onBreach(breach);
    }
  }
}

/** Starts watching a bot (a no-op handle where there is no /proc). */
export function watchBot(target: WatchTarget): WatchHandle {
  const entry: Entry = { target, members: new Map(), peak: 0, breached: false };
  if (HAVE_PROCFS) {
    watched.set(target.tag, entry);
    if (target.root) roots.set(target.root.pid, target.tag);
    // Attributions made before this tag was watched said "nobody's"; let them be decided again.
    for (const k of table.values()) if (k.owner === null) k.owner = undefined;
    timer ??= setInterval(checkNow, WATCH_INTERVAL_MS).unref();
  }
  return {
    members: () => [...entry.members].map(([pid, startTime]) => ({ pid, startTime })),
    get peakBytes() {
      return entry.peak;
    },
    stop() {
      if (watched.get(target.tag) !== entry) return;
      watched.delete(target.tag);
      if (target.root && roots.get(target.root.pid) === target.tag) roots.delete(target.root.pid);
      if (watched.size === 0 && timer) {
        clearInterval(timer);
        timer = undefined;
        table.clear();
      }
    },
  };
}
