/**
 * A built-in bot's start: spawn to a handshaken link (its `hello` answered), through the one launcher the
 * arena uses (app/launch/launch-bot.ts), confined and unconfined, for a few built-in bots. Starts are taken
 * in turn, so drift on a loaded machine hits every variant alike; the figure is the median, printed with
 * the load average it ran at. The compiled tree (dist/) must be fresh, as `npm run build` leaves it: the
 * bench says so when the bots ran through tsx. After the figures, the breakdown of one bot's start by stage
 * (bench/_start-stages.ts): Node alone, the bot's own start from its code cache and without it, bwrap, and
 * the referee's part, each with its CPU time, which a loaded machine does not inflate as it does wall time.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { resolveBot, type ResolvedBot } from '../src/app/bots/bot-registry.ts';
import { launchBot } from '../src/app/launch/launch-bot.ts';
import { launchPlanOf } from '../src/app/launch/launch-plan.ts';
import { openContext } from '../src/app/context.ts';
import { sandboxSupport } from '../src/sandbox/probe.ts';
import { startArenaServer } from '../src/transport/ws-server.ts';
import { startStages } from './_start-stages.ts';
import type { BenchRow, BenchSuite } from './types.ts';

const ROOT = resolve(import.meta.dirname, '..');
const BOTS = ['ida-star', 'constructive'];

export const bench: BenchSuite = async ({ quick }) => {
  const dir = mkdtempSync(join(tmpdir(), 'arena-bench-start-'));
  const opened = await openContext({ db: join(dir, 'start.db'), projectRoot: ROOT });
  if (!opened.ok) throw new Error(opened.reason);
  const ctx = opened.value;
  const server = await startArenaServer({ authenticate: () => undefined });
  const confinedToo = sandboxSupport().ok;
  const rounds = quick ? 5 : 21;
  const rows: BenchRow[] = [];
  const saved = process.env;
  try {
    const variants: { bot: ResolvedBot; confined: boolean; label?: string; times: number[] }[] = [];
    for (const name of BOTS) {
      const bot = await resolveBot(ctx, name);
      if (!bot.ok) throw new Error(bot.reason);
      for (const confined of confinedToo ? [false, true] : [false]) variants.push({ bot: bot.value, confined, times: [] });
      // The same run's start from the code cache alone (main.cjs), which the startup snapshot speeds up.
      const { startSnapshot, ...cached } = bot.value;
      if (startSnapshot) for (const confined of confinedToo ? [false, true] : [false]) variants.push({ bot: cached, confined, label: 'code cache only (main.cjs)', times: [] });
      // The same run's baseline: the start this one replaced (the ES module and its chunks, compiled at each
      // start, its sandbox showing dist/chunks), where the build left it.
      const esm = join(ROOT, 'dist', 'bots', name, 'main.js');
      if (bot.value.args[0]?.endsWith('.cjs') && existsSync(esm)) {
        variants.push({ bot: { ...cached, args: [esm], entry: esm }, confined: confinedToo, label: 'previous start (ES modules + chunks)', times: [] });
      }
    }
    // An unconfined bot gets the referee's environment, which can cost on its own (NODE_EXTRA_CA_CERTS makes
    // Node read a certificate bundle at start-up): both kinds start with the sandbox's few variables here.
    process.env = { PATH: saved.PATH ?? '/usr/bin:/bin', HOME: '/tmp' };
    const load0 = loadavg()[0];
    for (let round = -1; round < rounds; round++) {
      for (const v of variants) {
        const plan = launchPlanOf({ timeLimitMs: 1000, unconfined: !v.confined });
        const launcher = launchBot(v.bot, plan, { server, ctx });
        const t0 = performance.now();
        const link = await launcher.connect();
        const ms = performance.now() - t0;
        if (!link.ok) throw new Error(`${v.bot.name}: ${link.reason}`);
        await launcher.dispose();
        if (round >= 0) v.times.push(ms); // round -1 fills the page cache and compiles the relay
      }
    }
    const load = ((load0 + loadavg()[0]) / 2).toFixed(2);
    for (const v of variants) {
      const sorted = v.times.sort((a, b) => a - b);
      const median = sorted[sorted.length >> 1]!;
      rows.push({
        name: `built-in ${v.bot.name} spawn to hello, ${v.confined ? 'confined' : 'unconfined'}${v.label ? `, ${v.label}` : ''}`,
        value: median,
        unit: 'ms',
        ...(v.confined && !v.label ? { target: '≤ 100' } : {}),
        note: `median of ${rounds} (${sorted[0]!.toFixed(0)}–${sorted[sorted.length - 1]!.toFixed(0)} ms), load ${load}${v.bot.args.includes('--import') ? ', through tsx: dist/ is stale' : ', dist/'}`,
      });
    }
  } finally {
    process.env = saved;
    await server.close();
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  }
  rows.push(...(await startStages(BOTS[0]!, rounds)));
  return rows;
};
