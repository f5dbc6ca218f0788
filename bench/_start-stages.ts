/**
 * Where a built-in bot's start goes, stage by stage (bench/bot-start.ts prints these rows beside its
 * figure; `node --import tsx bench/_start-stages.ts [rounds]` prints them alone). Every stage is repeated
 * `rounds` times, the stages in turn, so load drifts alike over all; each row is the median wall time and
 * the mean CPU time (the children's, from /proc/self/stat, or the referee's own, process.cpuUsage), which
 * the other work on a loaded machine does not inflate.
 *
 * Processes: bwrap running `true`; `node -e 0` outside and inside bwrap; the bot's own program up to where
 * it would connect (its modules loaded and the SDK initialised: without ARENA_URL it stops there), from
 * its startup snapshot, from its code cache, with V8 refusing the cache (other V8 flags), and the
 * ES-module build those replace.
 * Referee side: readying a confinement (what the sandbox finds once per bot: system paths, code mounts) and
 * one start's holdings (uid, control groups, writable space; taken and given back).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { resolveBot } from '../src/app/bots/bot-registry.ts';
import { openContext } from '../src/app/context.ts';
import { confinementFor } from '../src/app/launch/sandbox-policy.ts';
import { sandboxSupport } from '../src/sandbox/probe.ts';
import { nodeOptionsFor, resolveLimits } from '../src/transport/process/bot-limits.ts';
import type { BenchRow } from './types.ts';

const ROOT = resolve(import.meta.dirname, '..');
const TICK_MS = 10; // USER_HZ is 100 on Linux

/** The CPU milliseconds of this process's waited-for children so far (cutime + cstime). */
function childrenCpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'latin1');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[13]) + Number(f[14])) * TICK_MS;
}

interface Stage {
  readonly name: string;
  /** One repetition; its own CPU time counts when `selfCpu`, else its children's. */
  run(): void;
  readonly selfCpu?: boolean;
}

/** Median wall and mean CPU of each stage over `rounds` interleaved repetitions (one more first, untimed). */
function measure(stages: readonly Stage[], rounds: number): { name: string; wall: number; cpu: number }[] {
  const wall = stages.map(() => [] as number[]);
  const cpu = stages.map(() => 0);
  for (let round = -1; round < rounds; round++) {
    stages.forEach((s, i) => {
      const c0 = s.selfCpu ? process.cpuUsage() : childrenCpuMs();
      const t0 = performance.now();
      s.run();
      const ms = performance.now() - t0;
      if (round < 0) return;
      wall[i]!.push(ms);
      if (s.selfCpu) {
        const used = process.cpuUsage(c0 as NodeJS.CpuUsage);
        cpu[i]! += (used.user + used.system) / 1000;
      } else cpu[i]! += childrenCpuMs() - (c0 as number);
    });
  }
  return stages.map((s, i) => ({ name: s.name, wall: wall[i]!.sort((a, b) => a - b)[wall[i]!.length >> 1]!, cpu: cpu[i]! / rounds }));
}

/** A process to completion, with exactly `env`. */
const proc = (command: string, args: readonly string[], env: Record<string, string>): (() => void) => () => {
  spawnSync(command, args, { env, stdio: 'ignore' });
};

/** The stage rows for built-in bot `name` (its program and its confinement). */
export async function startStages(name: string, rounds: number): Promise<BenchRow[]> {
  const opened = await openContext({ db: ':memory:', projectRoot: ROOT });
  if (!opened.ok) throw new Error(opened.reason);
  const ctx = opened.value;
  try {
    const bot = await resolveBot(ctx, name);
    if (!bot.ok) throw new Error(bot.reason);
    const { command, args } = { command: bot.value.command!, args: [...bot.value.args] };
    const base = { PATH: '/usr/bin:/bin', HOME: '/tmp' };
    const limits = resolveLimits();
    const heap = { ...base, NODE_OPTIONS: nodeOptionsFor(limits, undefined) };
    // Another heap size changes V8's flags, and V8 refuses a cache made under other flags: the plain compile.
    const refused = { ...base, NODE_OPTIONS: `--max-old-space-size=${Math.floor(limits.memoryBytes / 2 ** 20 / 2)}` };
    const esm = join(ROOT, 'dist', 'bots', name, 'main.js');
    const stages: Stage[] = [
      { name: 'node -e 0', run: proc(process.execPath, ['-e', '0'], base) },
      ...(bot.value.startSnapshot ? [{ name: `${name}: SDK from the startup snapshot, bot's own load`, run: proc(command, bot.value.startSnapshot.args, heap) }] : []),
      { name: `${name}: load + SDK init (${args.at(-1)?.endsWith('.cjs') ? 'code cache' : 'as started'})`, run: proc(command, args, heap) },
      { name: `${name}: load + SDK init, cache refused (compiles)`, run: proc(command, args, refused) },
      { name: `${name}: load + SDK init, ES modules + chunks`, run: proc(process.execPath, [esm], heap) },
    ];
    const support = sandboxSupport();
    if (support.ok) {
      const bw = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-all', '--die-with-parent', '--'];
      stages.push(
        { name: 'bwrap true', run: proc(support.bwrap, [...bw, '/bin/true'], base) },
        { name: 'bwrap node -e 0', run: proc(support.bwrap, [...bw, process.execPath, '-e', '0'], base) },
        { name: `${name}: referee readies its confinement`, selfCpu: true, run: () => void confinementFor(bot.value, ctx) },
      );
      const confine = confinementFor(bot.value, ctx);
      stages.push({
        name: `${name}: referee takes + gives back one start (uid, cgroups, space, checks)`,
        selfCpu: true,
        run: () => {
          const r = confine.prepare({ command, args, env: {}, start: { name, memoryBytes: limits.memoryBytes, diskBytes: limits.diskBytes } });
          if (!r.ok) throw new Error(r.reason);
          r.value.release();
        },
      });
    }
    return measure(stages, rounds).map((s) => ({ name: `stage: ${s.name}`, value: s.wall, unit: 'ms', note: `median of ${rounds}; CPU ${s.cpu.toFixed(1)} ms (mean)` }));
  } finally {
    await ctx.close();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const rounds = Number(process.argv[2] ?? 21);
  for (const name of ['ida-star', 'constructive']) for (const r of await startStages(name, rounds)) console.log(`${r.value.toFixed(1).padStart(7)} ms  ${r.name}  (${r.note})`);
}
