/**
 * What measuring CPU time costs the referee: one read of a bot's CPU counters from /proc (the referee reads
 * twice per solve, outside the timed span), for a Node bot (its main thread and V8's helper threads) and
 * for a bot with four worker processes. Linux only; elsewhere nothing is measured and the suite is empty.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpuMeter } from '../src/transport/cpu-meter.ts';
import { HAVE_PROCFS, listThreads } from '../src/transport/proc-fs.ts';
import type { BenchRow, BenchSuite } from './types.ts';

const IDLE = 'setInterval(() => {}, 1000)';
const WITH_WORKERS = `const { spawn } = require('node:child_process'); for (let i = 0; i < 4; i++) spawn(process.execPath, ['-e', ${JSON.stringify(IDLE)}], { stdio: 'ignore' }); ${IDLE}`;

async function readCost(program: string, label: string, budgetMs: number): Promise<BenchRow> {
  const child: ChildProcess = spawn(process.execPath, ['-e', program], { stdio: 'ignore', detached: true });
  try {
    await new Promise((r) => setTimeout(r, 1500)); // let the workers start
    const meter = cpuMeter(child.pid!)!;
    meter.read();
    let n = 0;
    const t0 = performance.now();
    while (performance.now() - t0 < budgetMs) {
      meter.read();
      n++;
    }
    const us = ((performance.now() - t0) / n) * 1000;
    return { name: `CPU time read, ${label}`, value: us, unit: 'µs', note: `${listThreads(child.pid!).length} threads in the bot's main process; twice per solve` };
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
  return [await readCost(IDLE, 'one Node process', budget), await readCost(WITH_WORKERS, 'Node process + 4 worker processes', budget)];
};
