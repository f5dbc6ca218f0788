/**
 * What measuring CPU time costs the referee: one read of a bot's CPU time (the referee reads twice per solve,
 * outside the timed span), for a Node bot (its main thread and V8's helper threads) and for a bot with four
 * worker processes, by each method: the bot's own control group (one counter) where the referee may make
 * one, and the walk of /proc (every thread of every process) that is the fallback. Linux only; elsewhere
 * nothing is measured and the suite is empty.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpuGroupRoot, createGroup } from '../src/transport/process/cpu-cgroup.ts';
import { groupCpuMeter, treeCpuMeter, type CpuMeter } from '../src/transport/process/cpu-meter.ts';
import { HAVE_PROCFS, listThreads } from '../src/transport/process/proc-fs.ts';
import type { BenchRow, BenchSuite } from './types.ts';

const IDLE = 'setInterval(() => {}, 1000)';
const WITH_WORKERS = `const { spawn } = require('node:child_process'); for (let i = 0; i < 4; i++) spawn(process.execPath, ['-e', ${JSON.stringify(IDLE)}], { stdio: 'ignore' }); ${IDLE}`;

function perRead(meter: CpuMeter, budgetMs: number): number {
  meter.read();
  let n = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < budgetMs) {
    meter.read();
    n++;
  }
  return ((performance.now() - t0) / n) * 1000;
}

async function readCost(program: string, label: string, budgetMs: number): Promise<BenchRow[]> {
  const child: ChildProcess = spawn(process.execPath, ['-e', program], { stdio: 'ignore', detached: true });
  try {
    const root = cpuGroupRoot();
    const group = root && createGroup(root, child.pid!);
    group?.add(child.pid!);
    await new Promise((r) => setTimeout(r, 1500)); // let the workers start
    const threads = `${listThreads(child.pid!).length} threads in the bot's main process; twice per solve`;
    const rows: BenchRow[] = [{ name: `CPU time read by the /proc walk, ${label}`, value: perRead(treeCpuMeter(child.pid!), budgetMs), unit: 'µs', note: threads }];
    if (group) {
      rows.push({ name: `CPU time read from the bot's control group, ${label}`, value: perRead(groupCpuMeter(child.pid!, () => [], group), budgetMs), unit: 'µs', note: `cgroup v${root!.version}` });
      group.remove();
    }
    return rows;
  } finally {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

export const bench: BenchSuite = async ({ quick }) => {
  if (!HAVE_PROCFS) return [];
  const budget = quick ? 200 : 1000;
  return [...(await readCost(IDLE, 'one Node process', budget)), ...(await readCost(WITH_WORKERS, 'Node process + 4 worker processes', budget))];
};
