/**
 * CPU time of a bot: every process it has started, every thread of each, and the children it has already
 * waited for. Read from Linux's /proc on demand (the referee reads it when a solve starts and when it ends),
 * so a bot that forks workers or keeps both cores busy shows more CPU time than wall time.
 *
 * The tree is walked from the bot's pid through /proc/<pid>/task/<tid>/children, plus whatever the process
 * watch has attributed to the bot by its launch tag (a child that left the tree by double-forking). Per
 * thread, the scheduler's exact runtime (schedstat, nanoseconds) is used: the process-wide ticks of
 * /proc/<pid>/stat come in 10 ms steps, too coarse for solves that take a few milliseconds. Those ticks
 * still matter for what the threads cannot show: threads that ended between two reads (their runtime is
 * only in the process's total) and children that were waited for (their whole lifetime moves into the
 * parent's cutime/cstime at that moment, in ticks).
 *
 * What cannot be seen: a descendant that exited after being re-parented to init (its time goes to init).
 *
 * That walk costs a few dozen /proc files per read (≈ 0.4 ms for a Node bot's eleven threads), twice per
 * solve. Where this referee may make control groups (cpu-cgroup.ts), the bot gets one of its own instead:
 * the walk is done once, at the first read, to count what the bot had used so far and to move every
 * process it has into the group; from then on a read is one pread of the group's counter, which the kernel
 * keeps for every process born into the group (forked workers, double-forked ones, those that ended). Both
 * count the same scheduler runtime; a test holds the two against each other on the same bots.
 */
import type { CpuGroup } from './cpu-cgroup.ts';
import { cpuGroupRoot, createGroup, disableCpuGroups } from './cpu-cgroup.ts';
import type { ProcStat } from './proc-fs.ts';
import { HAVE_PROCFS, listThreads, readStat, readThreadChildren, readThreadRuntimeNs, TICKS_PER_SECOND } from './proc-fs.ts';
import type { ProcessId } from './process-sweep.ts';

/** True where the CPU time of bot processes can be measured (Linux with /proc). */
export const CPU_TIME_MEASURED = HAVE_PROCFS;

const NS_PER_TICK = 1e9 / TICKS_PER_SECOND;
/** Two values each truncated to whole ticks differ from the exact difference by less than two ticks. */
const TICK_SLACK_NS = 2 * NS_PER_TICK;
/** Most processes one read walks (a bot with more is past any process limit; see bot-limits.ts). */
const MAX_PROCESSES = 4096;

/** One process at one read. */
interface ProcSample {
  readonly startTime: number;
  readonly ppid: number;
  /** Runtime of each live thread, ns; undefined when schedstat is unreadable (then ticks are all there is). */
  readonly threads: Map<number, number> | undefined;
  readonly ticks: number;
  readonly childTicks: number;
}

type TreeSample = Map<number, ProcSample>;

/** Reads the CPU time of one bot's process tree; see the module comment. */
export interface CpuMeter {
  /**
   * Milliseconds of CPU the bot's processes have used since the first read (which counts their whole
   * lives so far); never decreases. Undefined once the bot's own process is gone.
   */
  read(): number | undefined;
}

/**
 * `meter`, read at most once per turn of the event loop: a second read in the same turn returns what the
 * first one did. The referee reads a bot's CPU when a solve ends and again when the next starts, and with a
 * fast bot both happen in one turn (the answer's handler sends the result and the next solve, corked into
 * one write that leaves when the turn ends): one reading serves as the end of one solve and the start of
 * the next. Each reading costs system calls on the referee's path between the answer and the next solve
 * (two preads of a control group, a walk of /proc without one), about 10 µs a scramble on a 2×2 board. What
 * the bot's processes do between the two (finishing the send of its answer) is charged to the next solve,
 * where a reading of its own would have left it out of both.
 */
export function oncePerTurn(meter: CpuMeter): CpuMeter {
  let held = false;
  let value: number | undefined;
  const release = (): void => {
    held = false;
  };
  return {
    read() {
      if (held) return value;
      value = meter.read();
      held = true;
      setImmediate(release);
      return value;
    },
  };
}

/**
 * A meter for the bot whose process is `rootPid` (the bot itself or a launcher it descends from), or
 * undefined where there is no /proc: a control-group counter where this referee can make one, else the
 * walk of /proc. `attributed` lists processes known to be the bot's outside its tree (the process watch).
 */
export function cpuMeter(rootPid: number, attributed: () => readonly ProcessId[] = () => []): CpuMeter | undefined {
  if (!HAVE_PROCFS) return undefined;
  const root = cpuGroupRoot();
  const group = root && createGroup(root, rootPid);
  if (group) {
    const added = group.add(rootPid);
    if (added === 'ok') return groupCpuMeter(rootPid, attributed, group);
    group.remove();
    // A hierarchy that will not take a process is no use for any bot.
    if (added === 'refused') disableCpuGroups();
  }
  return treeCpuMeter(rootPid, attributed);
}

/**
 * The group counter: the first read walks the tree once (what the bot has used so far, and any process it
 * started before it was in the group, moved in now); later reads add the counter's growth. Processes the
 * watch attributes to the bot later are moved in when first seen.
 */
export function groupCpuMeter(rootPid: number, attributed: () => readonly ProcessId[], group: CpuGroup): CpuMeter {
  const moved = new Set<number>([rootPid]);
  let base: { readonly ns: number; readonly usage: number } | undefined;
  let last = 0;
  return {
    read() {
      if (!group.alive()) {
        group.remove();
        return undefined;
      }
      for (const p of attributed()) {
        if (moved.has(p.pid)) continue;
        moved.add(p.pid);
        group.add(p.pid);
      }
      if (!base) {
        const tree = sampleTree(rootPid, attributed());
        // Those born into the group after their parent was moved are there already: no write for them.
        for (const pid of group.members()) moved.add(pid);
        for (const pid of tree.keys()) if (!moved.has(pid) && group.add(pid) !== 'refused') moved.add(pid);
        const usage = group.usageNs();
        if (!tree.has(rootPid) || usage === undefined) return undefined;
        base = { ns: Math.max(0, cpuBetween(new Map(), tree)), usage };
        return (last = base.ns / 1e6);
      }
      const usage = group.usageNs();
      if (usage === undefined) return undefined;
      last = Math.max(last, (base.ns + usage - base.usage) / 1e6);
      return last;
    },
  };
}

/** The walk of /proc on every read (see the module comment): where no control group can be made. */
export function treeCpuMeter(rootPid: number, attributed: () => readonly ProcessId[] = () => []): CpuMeter {
  let previous: TreeSample = new Map();
  let totalNs = 0;
  return {
    read() {
      const now = sampleTree(rootPid, attributed());
      if (!now.has(rootPid)) return undefined;
      totalNs += Math.max(0, cpuBetween(previous, now));
      previous = now;
      return totalNs / 1e6;
    },
  };
}

/** Every process of the tree and the attributed ones, with their CPU counters. */
export function sampleTree(rootPid: number, attributed: readonly ProcessId[]): TreeSample {
  const out: TreeSample = new Map();
  const queue: number[] = [rootPid];
  const expected = new Map<number, number>();
  for (const p of attributed) {
    expected.set(p.pid, p.startTime);
    queue.push(p.pid);
  }
  while (queue.length > 0 && out.size < MAX_PROCESSES) {
    const pid = queue.pop()!;
    if (out.has(pid)) continue;
    const st = readStat(pid);
    if (!st) continue;
    // An attributed pid that now names another process (pids are reused) is not the bot's.
    const start = expected.get(pid);
    if (start !== undefined && start !== st.startTime && pid !== rootPid) continue;
    out.set(pid, sampleProcess(st, queue));
  }
  return out;
}

function sampleProcess(st: ProcStat, queue: number[]): ProcSample {
  let threads: Map<number, number> | undefined = new Map();
  for (const tid of listThreads(st.pid)) {
    const ns = readThreadRuntimeNs(st.pid, tid);
    if (ns === undefined) threads = undefined;
    else threads?.set(tid, ns);
    const kids = readThreadChildren(st.pid, tid);
    if (kids) for (const k of kids) queue.push(k);
  }
  return { startTime: st.startTime, ppid: st.ppid, threads, ticks: st.cpuTicks, childTicks: st.childCpuTicks };
}

/**
 * CPU nanoseconds the tree used between two samples. Per process alive in `now`: its threads' runtime
 * since `before` (a new thread or process counts whole), unless its tick total grew by clearly more, which
 * means threads that ran and ended in between; plus the growth of its waited-for children's time. A
 * process of `before` that is gone was most likely waited for by its parent, whose cutime now holds its
 * whole life: the part already counted in `before` is taken off again.
 */
export function cpuBetween(before: TreeSample, now: TreeSample): number {
  let ns = 0;
  for (const [pid, p] of now) {
    const q = before.get(pid);
    const same = q !== undefined && q.startTime === p.startTime ? q : undefined;
    const tickNs = (p.ticks - (same?.ticks ?? 0)) * NS_PER_TICK;
    let own = tickNs;
    if (p.threads && (!same || same.threads)) {
      let threadNs = 0;
      for (const [tid, v] of p.threads) {
        const u = same?.threads?.get(tid);
        threadNs += u !== undefined && v >= u ? v - u : v;
      }
      if (tickNs <= threadNs + TICK_SLACK_NS) own = threadNs;
    }
    ns += own + (p.childTicks - (same?.childTicks ?? 0)) * NS_PER_TICK;
  }
  for (const [pid, q] of before) {
    const p = now.get(pid);
    if (p && p.startTime === q.startTime) continue;
    const parent = before.get(q.ppid);
    const parentNow = now.get(q.ppid);
    if (parent && parentNow && parentNow.startTime === parent.startTime) ns -= (q.ticks + q.childTicks) * NS_PER_TICK;
  }
  return ns;
}
