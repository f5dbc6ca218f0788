/**
 * Time to place a bot on the ladder, with the default placement rule (interval at most 200 Elo wide after
 * at least 10 games, at most 100; 10 scrambles a game): the real `arena ladder` on a SQLite file places a
 * field of three built-in bots, then a newcomer is timed from the moment it joins to its 1st and 10th
 * finished game and to the moment it is placed (its check, the capability read, its games). 3×3: the A*
 * command bot of the tests, registered while the ladder runs (the load average is printed with it); 4×4
 * (not with --quick): the built-in pdb-beam joining the field on a restart. Opt-in: minutes per class.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { ladderView } from '../src/app/ladder/ladder-status.ts';
import type { OpenContext } from '../src/app/context.ts';
import { addAstar, astarFolder, reader } from '../test/helpers/ladder-bot.ts';
import type { BenchRow, BenchSuite } from './types.ts';

export const optIn = true;

const LIMIT_MS = 40 * 60_000;
const ROOT = resolve(import.meta.dirname, '..');

/** The real CLI as a child process (the test helpers' spawnArena needs vitest). */
function spawnArena(args: string[]): { child: ChildProcess; done: Promise<{ code: number | null; stderr: string }> } {
  const child = spawn(process.execPath, [join(ROOT, 'bin/arena.js'), ...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  return { child, done: new Promise((res) => child.on('close', (code) => res({ code, stderr }))) };
}

/** Polls `pred` every 50 ms until it holds or `ms` pass. */
async function waitFor(pred: () => Promise<boolean>, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) if (await pred()) return true;
  return pred();
}

/** Games the bot has on the ladder's board: one per scramble played against a rival, as `ladder status` counts them. */
async function gamesOf(ctx: OpenContext, bot: string): Promise<number> {
  const view = await ladderView(ctx);
  return view.classes[0]?.ranking.find((x) => x.bot === bot)?.games ?? 0;
}

async function place(cls: string, field: string[], newcomer: { register?: string[]; bot: string }): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'arena-bench-placement-'));
  const db = join(dir, 'ladder.db');
  const flags = (bots: string[]) => ['ladder', '--db', db, '--puzzle', cls, ...bots.flatMap((b) => ['--bot', b]), '--budget', '0', '--seed', 'bench'];
  let ladder = spawnArena(flags(field));
  const ctx = await reader(db);
  try {
    const placed = async (bot: string) => {
      const v = await ladderView(ctx);
      return v.versions.some((x) => x.bot === bot && x.current && x.status === 'placed');
    };
    if (!(await waitFor(async () => (await Promise.all(field.map(placed))).every(Boolean), LIMIT_MS))) throw new Error(`${cls}: the field was not placed in time`);
    let t0: number;
    if (newcomer.register) {
      t0 = performance.now();
      const added = await spawnArena([...newcomer.register, '--db', db]).done;
      if (added.code !== 0) throw new Error(added.stderr);
    } else {
      ladder.child.kill('SIGINT');
      await ladder.done;
      t0 = performance.now();
      ladder = spawnArena(flags([...field, newcomer.bot]));
    }
    const load0 = loadavg()[0];
    const at: Record<number, number> = {};
    const games = async (): Promise<boolean> => {
      const n = await gamesOf(ctx, newcomer.bot);
      for (const k of [1, 10]) if (n >= k) at[k] ??= (performance.now() - t0) / 1000;
      return placed(newcomer.bot);
    };
    if (!(await waitFor(games, LIMIT_MS))) throw new Error(`${cls}: ${newcomer.bot} was not placed in time`);
    const seconds = (performance.now() - t0) / 1000;
    const view = await ladderView(ctx);
    const r = view.classes[0]!.ranking.find((x) => x.bot === newcomer.bot)!;
    const load = `load ${((load0 + loadavg()[0]) / 2).toFixed(2)}`;
    const what = `${newcomer.bot} on ${cls} against ${field.join(', ')}`;
    return [
      { name: `${what}: 1st game`, value: at[1] ?? Number.NaN, unit: 's', note: `from ${newcomer.register ? 'its registration' : 'the restart'}; ${load}` },
      { name: `${what}: 10th game`, value: at[10] ?? Number.NaN, unit: 's', target: newcomer.register ? '≤ 3' : undefined, note: load },
      { name: `place ${what} (check + games)`, value: seconds, unit: 's', note: `${r.games} games, rating ${r.rating.toFixed(0)} [${r.low.toFixed(0)}, ${r.high.toFixed(0)}]; ${load}` },
    ];
  } finally {
    ladder.child.kill('SIGINT');
    await ladder.done;
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export const bench: BenchSuite = async ({ quick }) => {
  const folder = astarFolder();
  try {
    return [
      ...(await place('sliding 3x3', ['constructive', 'ida-star', 'dijkstra'], { register: addAstar(folder), bot: 'astar' })),
      ...(quick ? [] : await place('sliding 4x4', ['constructive', 'ida-star', 'hybrid'], { bot: 'pdb-beam' })),
    ];
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
};
