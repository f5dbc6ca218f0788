/**
 * Time to place a bot on the ladder, with the default placement rule (interval at most 200 Elo wide after
 * at least 10 games, at most 100; 10 scrambles a game): the real `arena ladder` on a SQLite file places a
 * field of three built-in bots, then a newcomer is timed from the moment it joins to the moment it is
 * placed (its check, the capability read, its games). 3×3: the A* command bot of the tests, registered while
 * the ladder runs; 4×4: the built-in pdb-beam joining the field on a restart. Opt-in: minutes per class.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ladderView } from '../src/app/ladder/ladder-status.ts';
import { spawnArena, waitFor } from '../test/e2e/helpers.ts';
import { addAstar, astarFolder, reader } from '../test/helpers/ladder-bot.ts';
import type { BenchRow, BenchSuite } from './types.ts';

export const optIn = true;

const LIMIT_MS = 40 * 60_000;

async function place(cls: string, field: string[], newcomer: { register?: string[]; bot: string }): Promise<BenchRow> {
  const dir = mkdtempSync(join(tmpdir(), 'arena-bench-placement-'));
  const db = join(dir, 'ladder.db');
  const flags = (bots: string[]) => ['ladder', '--db', db, '--puzzle', cls, ...bots.flatMap((b) => ['--bot', b]), '--budget', '0', '--seed', 'bench', '--poll', '500ms'];
  let ladder = spawnArena(flags(field), {});
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
      const added = await spawnArena([...newcomer.register, '--db', db], {}).done;
      if (added.code !== 0) throw new Error(added.stderr);
    } else {
      ladder.child.kill('SIGINT');
      await ladder.done;
      t0 = performance.now();
      ladder = spawnArena(flags([...field, newcomer.bot]), {});
    }
    if (!(await waitFor(() => placed(newcomer.bot), LIMIT_MS))) throw new Error(`${cls}: ${newcomer.bot} was not placed in time`);
    const seconds = (performance.now() - t0) / 1000;
    const view = await ladderView(ctx);
    const r = view.classes[0]!.ranking.find((x) => x.bot === newcomer.bot)!;
    return { name: `place ${newcomer.bot} on ${cls} against ${field.join(', ')} (check + games)`, value: seconds, unit: 's', note: `${r.games} games, rating ${r.rating.toFixed(0)} [${r.low.toFixed(0)}, ${r.high.toFixed(0)}]` };
  } finally {
    ladder.child.kill('SIGINT');
    await ladder.done;
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export const bench: BenchSuite = async () => {
  const folder = astarFolder();
  try {
    return [
      await place('sliding 3x3', ['constructive', 'ida-star', 'dijkstra'], { register: addAstar(folder), bot: 'astar' }),
      await place('sliding 4x4', ['constructive', 'ida-star', 'hybrid'], { bot: 'pdb-beam' }),
    ];
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
};
